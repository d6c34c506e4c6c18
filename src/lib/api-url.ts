// Where the API lives: the configured host, or this page's origin.
import { API_HOST } from '../config/site';

export function apiUrl(path: string): string {
  const host = API_HOST !== '' ? API_HOST : window.location.origin;
  return `${host.replace(/\/+$/, '')}${path}`;
}
