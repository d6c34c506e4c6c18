// Takes the browser off or back on the network as the app sees it (navigator.onLine and the
// online/offline events), for screens that disable actions needing the network.
import { act } from '@testing-library/react';

export function setOnline(online: boolean): void {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}
