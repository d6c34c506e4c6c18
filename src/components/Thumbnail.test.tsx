import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import styles from './feedback.module.css';
import { Thumbnail } from './Thumbnail';

afterEach(cleanup);

const placeholder = () => screen.getByRole('img', { name: 'Thumbnail of Harbour' });

describe('Thumbnail', () => {
  it('turns into the grey placeholder of the same size when the image fails to load', () => {
    const { container, rerender } = render(
      <Thumbnail src="/assets/a.jpg" alt="Thumbnail of Harbour" width={160} height={90} />,
    );
    const img = screen.getByRole<HTMLImageElement>('img', { name: 'Thumbnail of Harbour' });
    expect(img.tagName).toBe('IMG');
    expect(img.getAttribute('loading')).toBe('lazy');

    fireEvent.error(img);
    expect(container.querySelector('img')).toBeNull();
    const box = placeholder();
    expect(box.hasAttribute('data-placeholder')).toBe(true);
    expect(box.className).toBe(styles.placeholder);
    expect([box.style.width, box.style.height]).toEqual(['160px', '90px']);

    // Another address (a refreshed signature) is tried again.
    rerender(<Thumbnail src="/assets/b.jpg" alt="Thumbnail of Harbour" width={160} height={90} />);
    expect(placeholder().tagName).toBe('IMG');
  });

  it('shows the placeholder when there is no image, keeping the aspect ratio in a sized box', () => {
    render(
      <Thumbnail src={null} alt="Thumbnail of Harbour" width={320} height={180} className="box" />,
    );
    const box = placeholder();
    expect(box.tagName).toBe('DIV');
    expect(box.className).toBe(`${styles.placeholder} box`);
    expect(box.style.aspectRatio).toBe('320 / 180');
  });
});
