// The transcript panel with a long transcript: of 2,000 lines only those in and near the list's
// view are in the document (each saying its place in the whole list), scrolling and the keys
// bring others in, and the spoken line follows the player's time, scrolled into view.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { englishMessages } from '../../lib/i18n';
import { TranscriptPanel } from './components/TranscriptPanel';

const at = (seconds: number) => {
  const s = String(Math.floor(seconds % 60)).padStart(2, '0');
  const m = String(Math.floor(seconds / 60) % 60).padStart(2, '0');
  return `0${Math.floor(seconds / 3600)}:${m}:${s}.000`;
};
const CUES = Array.from({ length: 2_000 }, (_, i) => ({
  startTime: at(i * 2),
  endTime: at(i * 2 + 1.5),
  text: `Line number ${i}`,
}));

const panel = (currentTime: number | null, onSeek = vi.fn()) => (
  <IntlProvider locale="en" messages={englishMessages}>
    <TranscriptPanel cues={CUES} note={null} currentTime={currentTime} onSeek={onSeek} />
  </IntlProvider>
);

describe('Transcript panel', () => {
  afterEach(cleanup);

  it('renders a window of 2,000 lines, highlights the spoken one in view and seeks from it', () => {
    const onSeek = vi.fn();
    const view = render(panel(null, onSeek));
    // By selector: role queries are slow in jsdom.
    const texts = () => [...view.container.querySelectorAll('li')].map((li) => li.textContent);
    expect(texts().length).toBeGreaterThanOrEqual(12);
    expect(texts().length).toBeLessThanOrEqual(40);
    expect(texts()[0]).toBe('0:00 Line number 0');
    const first = view.container.querySelector('li')!;
    expect([first.getAttribute('aria-posinset'), first.getAttribute('aria-setsize')]).toEqual([
      '1',
      '2000',
    ]);
    expect(
      screen.getByText('2,000 lines. Select a line to play the video from there.'),
    ).toBeTruthy();

    view.rerender(panel(1500 * 2 + 0.5, onSeek));
    const spoken = () => [...view.container.querySelectorAll('[aria-current="true"]')];
    expect(spoken().map((el) => el.textContent)).toEqual(['50:00 Line number 1500']);
    expect(view.container.querySelector('ol')!.parentElement!.scrollTop).toBeGreaterThan(1400 * 30);
    expect(texts()).not.toContain('0:00 Line number 0');
    spoken()[0]!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(onSeek).toHaveBeenCalledWith(3000);
    view.rerender(panel(1500 * 2 + 1.7, onSeek)); // after its end, before the next line
    expect(spoken()).toEqual([]);
  });

  it('brings other lines in as the list scrolls', () => {
    const view = render(panel(null));
    const list = view.container.querySelector('ol')!.parentElement!;
    act(() => {
      list.scrollTop = 600 * 30;
      fireEvent.scroll(list);
    });
    const texts = [...view.container.querySelectorAll('li')].map((li) => li.textContent);
    expect(texts).toContain('20:00 Line number 600');
    expect(texts).not.toContain('0:00 Line number 0');
  });

  it('is one tab stop; the arrow keys, End and Home move between the lines', () => {
    const onSeek = vi.fn();
    const view = render(panel(null, onSeek));
    const tabbable = () => [...view.container.querySelectorAll('li button[tabindex="0"]')];
    expect(tabbable().map((b) => b.textContent)).toEqual(['0:00 Line number 0']);
    const first = tabbable()[0] as HTMLElement;
    act(() => first.focus());
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('0:02 Line number 1');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('1:06:38 Line number 1999');
    expect(tabbable().map((b) => b.textContent)).toEqual(['1:06:38 Line number 1999']);
    fireEvent.keyDown(document.activeElement!, { key: 'PageUp' });
    expect(document.activeElement?.textContent).toBe('1:06:18 Line number 1989');
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    fireEvent.click(document.activeElement!);
    expect(onSeek).toHaveBeenCalledWith(1989 * 2);
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(document.activeElement?.textContent).toBe('0:00 Line number 0');
  });

  it('filters the whole transcript, not only the lines in view', () => {
    const view = render(panel(null));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search the transcript' }), {
      target: { value: 'number 1999' },
    });
    expect([...view.container.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '1:06:38 Line number 1999',
    ]);
    expect(view.container.querySelector('mark')?.textContent).toBe('number 1999');
    expect(screen.getByText('1 of 2000 lines contain the text.')).toBeTruthy();
  });
});
