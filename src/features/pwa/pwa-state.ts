// Installed-app and update state, gathered from the first moment the page runs (this module is in
// the entry, so it stays tiny; workbox-window loads after the page). The signed-in layout shows the
// install button and the update prompt from it.
/** Chromium's install prompt event (not in the DOM typings). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export interface PwaState {
  /** The browser offers installation and the app is not installed. */
  canInstall: boolean;
  /** A new service worker is installed and waiting. */
  updateWaiting: boolean;
  /** The update was asked for but waits for uploads to finish. */
  updateDeferred: boolean;
}

let state: PwaState = { canInstall: false, updateWaiting: false, updateDeferred: false };
let installEvent: InstallPromptEvent | undefined;
let skipWaiting: (() => void) | undefined;
const listeners = new Set<() => void>();

export function setPwaState(change: Partial<PwaState>): void {
  state = { ...state, ...change };
  for (const listener of listeners) listener();
}

export const getPwaState = (): PwaState => state;

export function subscribePwaState(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isStandalone(): boolean {
  return window.matchMedia?.('(display-mode: standalone)').matches ?? false;
}

/** Keeps the browser's install offer for our own button; forgets it once installed. */
export function watchInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installEvent = event as InstallPromptEvent;
    setPwaState({ canInstall: !isStandalone() });
  });
  window.addEventListener('appinstalled', () => {
    installEvent = undefined;
    setPwaState({ canInstall: false });
  });
}

export async function promptInstall(): Promise<void> {
  const event = installEvent;
  if (!event) return;
  await event.prompt();
  await event.userChoice;
  // An offer is used once; after a dismissal the browser may fire beforeinstallprompt again.
  installEvent = undefined;
  setPwaState({ canInstall: false });
}

/** Lets the waiting service worker take over (the update prompt's Reload, after its checks). */
export function skipWaitingNow(): void {
  skipWaiting?.();
}

/** After the page has loaded, so workbox-window never competes with the first screen. */
export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  if (document.readyState !== 'complete') {
    await new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
  }
  const { Workbox } = await import('workbox-window');
  const wb = new Workbox('/sw.js', { type: 'module' });
  wb.addEventListener('waiting', () => setPwaState({ updateWaiting: true }));
  skipWaiting = () => wb.messageSkipWaiting();
  await wb.register();
}
