// The scene detector's measurements of each sample (as PySceneDetect's StatsManager keeps its
// per-frame metrics), apart from the detectors that judge them, so that a bench can print them:
// brightness, change and colours of every sample (media/visual.ts), the coarse grids and their
// statistics of the last samples (samples.ts), the 4x3 layout of every sample (layouts.ts), and
// every sample's mean colour (signals/colour-ramp.ts), every sample's grid change over each
// blend window's span (span-changes.ts), and the colour histograms of the last samples
// (signals/colour-mixture.ts).
import { VisualSamples } from '../media/visual.ts';
import { Layouts } from './layouts.ts';
import { RecentSamples } from './samples.ts';
import { SpanChanges } from './span-changes.ts';
import { colourHistogram } from './signals/colour-mixture.ts';
import { ColourRamp } from './signals/colour-ramp.ts';

export interface MeasureOptions {
  fps: number;
  width: number;
  height: number;
  /** Samples the grid ring keeps (the detectors' widest look back). */
  recent: number;
  /** The blend windows' half-widths, in samples (SpanChanges). */
  windows: readonly number[];
  /** Samples whose colour histograms are kept (the colours' widest look back and ahead). */
  histograms: number;
}

/** The last `capacity` values pushed, looked up by sample number. */
export class RecentValues<T> {
  private readonly ring: T[] = [];
  private count = 0;

  constructor(private readonly capacity: number) {}

  push(value: T): void {
    this.ring.push(value);
    if (this.ring.length > this.capacity) this.ring.shift();
    this.count++;
  }

  /** Sample i's value, while still kept. */
  get(i: number): T | undefined {
    const offset = this.count - 1 - i;
    return offset < 0 ? undefined : this.ring[this.ring.length - 1 - offset];
  }
}

export class Measurements {
  readonly visual: VisualSamples;
  readonly recent: RecentSamples;
  readonly layouts: Layouts;
  readonly colourRamp: ColourRamp;
  readonly spans: SpanChanges;
  /** Each recent sample's colour histogram (4 levels a channel, summing to 1). */
  readonly histograms: RecentValues<Float32Array>;
  private previous: Uint8Array | undefined;

  constructor(o: MeasureOptions) {
    this.visual = new VisualSamples(o.fps);
    this.recent = new RecentSamples(o.width, o.height, o.recent);
    this.layouts = new Layouts(o.width, o.height);
    this.colourRamp = new ColourRamp(o.fps);
    this.spans = new SpanChanges(o.windows);
    this.histograms = new RecentValues(o.histograms);
  }

  /** Samples measured so far. */
  get count(): number {
    return this.visual.count;
  }

  /** One rgb24 frame, the next sample in time. */
  push(frame: Uint8Array): void {
    this.visual.add(frame, this.previous);
    this.previous = new Uint8Array(frame); // a copy: Buffer#slice would share memory
    this.recent.push(frame);
    this.layouts.push(frame);
    this.colourRamp.push(this.recent.stat(this.count - 1)!.mean);
    this.spans.push(this.recent, this.count - 1);
    this.histograms.push(colourHistogram(frame));
  }
}
