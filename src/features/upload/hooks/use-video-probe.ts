// Reads the chosen video's duration and date in the probe worker; a new choice aborts the last.
import { useEffect, useState } from 'react';
import type { VideoProbe } from '../../../upload-queue/probe-bridge';

export type ProbeFn = (file: File, signal?: AbortSignal) => Promise<VideoProbe>;

export type ProbeState =
  | { status: 'idle' }
  | { status: 'probing' }
  | { status: 'done'; probe: VideoProbe }
  | { status: 'error' };

async function workerProbe(file: File, signal?: AbortSignal): Promise<VideoProbe> {
  const { probeVideo } = await import('../../../upload-queue/probe-bridge');
  return probeVideo(file, signal);
}

export function useVideoProbe(file: File | null, probe: ProbeFn = workerProbe): ProbeState {
  const [state, setState] = useState<ProbeState>({ status: 'idle' });

  useEffect(() => {
    if (!file) {
      setState({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    setState({ status: 'probing' });
    probe(file, controller.signal).then(
      (result) => {
        if (controller.signal.aborted) return;
        const usable = Number.isFinite(result.durationSeconds) && result.durationSeconds > 0;
        setState(usable ? { status: 'done', probe: result } : { status: 'error' });
      },
      () => {
        if (!controller.signal.aborted) setState({ status: 'error' });
      },
    );
    return () => controller.abort();
  }, [file, probe]);

  return state;
}
