// The transcript panel with a long transcript: 2,000 lines arrive in batches (never all in the
// first render, which would be one long task), and the spoken line follows the player's time.
import { render, screen, waitFor } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { describe, expect, it, vi } from 'vitest';
import { englishMessages } from '../../lib/i18n';
import { TranscriptPanel } from './components/TranscriptPanel';

const at = (seconds: number) => {
  const s = String(Math.floor(seconds % 60)).padStart(2, '0');
  const m = String(Math.floor(seconds / 60) % 60).padStart(2, '0');
  return `00:${m}:${s}.000`;
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

describe('Transcript panel', { timeout: 30_000 }, () => {
  it('renders 2,000 lines in batches of 100, highlights the spoken one and seeks from a line', async () => {
    const onSeek = vi.fn();
    const view = render(panel(null, onSeek));
    // By selector: role queries over 2,000 elements are slow in jsdom.
    const lines = () => view.container.querySelectorAll('li');
    expect(lines().length).toBeLessThanOrEqual(100);
    // The next batches follow, each in a task of its own.
    await waitFor(() => expect(lines().length).toBeGreaterThanOrEqual(300));
    expect(
      screen.getByText('2,000 lines. Select a line to play the video from there.'),
    ).toBeTruthy();

    view.rerender(panel(150 * 2 + 0.5, onSeek));
    const spoken = () => [...view.container.querySelectorAll('[aria-current="true"]')];
    expect(spoken().map((el) => el.textContent)).toEqual(['5:00 Line number 150']);
    spoken()[0]!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(onSeek).toHaveBeenCalledWith(300);
    view.rerender(panel(150 * 2 + 1.7, onSeek)); // after its end, before the next line
    expect(spoken()).toEqual([]);
  });
});
