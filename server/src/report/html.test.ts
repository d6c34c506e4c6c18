import { describe, expect, it } from 'vitest';
import { escapeHtml, renderReport, type ReportModel } from './html.ts';

const model = (over: Partial<ReportModel> = {}): ReportModel => ({
  language: 'en',
  title: 'Harbour <walk>',
  filename: 'a"b.mp4',
  recorded: '2024/05/01',
  uploaded: '2024/05/02 10:00',
  length: '00:01:00',
  resolution: '1280 × 720',
  summary: "It's & more",
  tags: ['<i>tag</i>'],
  instruction: 'Find the </p><script>x()</script>',
  answer: { kind: 'quotes', scenes: [1] },
  scenes: [
    {
      index: 0,
      startTime: '00:00:00.000',
      endTime: '00:00:02.000',
      description: 'first',
      captions: '',
      image: null,
    },
    {
      index: 1,
      startTime: '00:00:02.000',
      endTime: '00:00:04.000',
      description: '<b>bold</b>',
      captions: 'said "hi"',
      image: 'data:image/jpeg;base64,AAAA',
    },
  ],
  captions: [{ startTime: '00:00:01.000', endTime: '00:00:02.000', text: '<u>cue</u>' }],
  captionsTotal: 1,
  generated: '2024/05/03 09:00',
  ...over,
});

describe('report HTML', () => {
  it('escapes every inserted text', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
    const html = renderReport(model());
    for (const raw of ['<walk>', '<i>', '<script>', '<b>', '<u>', 'a"b'])
      expect(html).not.toContain(raw);
    expect(html).toContain('Harbour &lt;walk&gt;');
    expect(html).toContain('It&#39;s &amp; more');
    expect(html).toContain('“said &quot;hi&quot;”');
  });

  it('embeds only base64 image data URIs', () => {
    const html = renderReport(
      model({
        scenes: [
          {
            index: 1,
            startTime: '00:00:00.000',
            endTime: '00:00:01.000',
            description: 'd',
            captions: '',
            image: 'javascript:alert(1)',
          },
        ],
      }),
    );
    expect(html).not.toContain('javascript:');
    expect(renderReport(model())).toContain('<img src="data:image/jpeg;base64,AAAA"');
  });

  it('quotes the matching scenes and says so, in the output language', () => {
    expect(renderReport(model())).toContain('One scene matches this instruction');
    const ja = renderReport(model({ language: 'ja', answer: { kind: 'quotes', scenes: [] } }));
    expect(ja).toContain('<html lang="ja">');
    expect(ja).toContain('この指示の言葉に合うシーンは見つかりませんでした');
  });

  it('shows a written answer as paragraphs with the cited scenes', () => {
    const html = renderReport(
      model({ answer: { kind: 'written', text: 'One <x>.\n\nTwo, see scene 1.', scenes: [1, 7] } }),
    );
    expect(html).toContain('<p>One &lt;x&gt;.</p><p>Two, see scene 1.</p>');
    expect(html).toContain('Scene 1 · 00:00:02.000 – 00:00:04.000');
    expect(html).toContain('Scenes cited');
  });
});
