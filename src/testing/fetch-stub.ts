// A stand-in for the network at the window.fetch edge: answers from a list of routes and records
// every request so tests can assert what the app sent.
import { vi } from 'vitest';

export interface SentRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

type Responder = (request: SentRequest) => { status: number; body?: unknown };

export function stubFetch(routes: Record<string, Responder>) {
  const sent: SentRequest[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), window.location.href);
    const method = init.method ?? 'GET';
    const headers = { ...(init.headers as Record<string, string> | undefined) };
    const body =
      typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : (init.body ?? undefined);
    const request = { method, url, headers, body };
    sent.push(request);
    const responder = routes[`${method} ${url.pathname}`];
    const answer = responder ? responder(request) : { status: 404, body: { detail: 'Not found' } };
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return new Response(text === '' ? null : text, {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { sent, fetchStub };
}

export const LOGIN_ANSWER = {
  access_token: 'token-1',
  token_type: 'bearer',
  user: {
    id: 7,
    email: 'user@example.com',
    full_name: 'Test User',
    username: 'tester',
    team: { name: 'Harbour Films' },
    must_change_password: false,
  },
};

export const SESSION_USER = {
  accessToken: 'token-1',
  tokenType: 'bearer',
  user: {
    id: 7,
    email: 'user@example.com',
    fullName: 'Test User',
    username: 'tester',
    team: { name: 'Harbour Films' },
    mustChangePassword: false,
  },
};
