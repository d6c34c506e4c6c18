// Security headers on every answer (issue 15 "Framing and scripts"). The app shell and its
// files get a Content-Security-Policy that runs only this origin's scripts and the build's one
// inline first-paint script (by hash); API answers get a policy that allows nothing. A route
// that set its own policy keeps it: the report page, and stored files of types a browser would
// run, which the assets route sandboxes (other stored files are images and videos, which a
// browser shows in its own viewer: a policy there would only risk blocking that viewer).
// Why each source is there: docs/decisions/security-headers.md.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** Answers of the API: never a document that runs or loads anything. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** 'sha256-…' sources of the inline <script> blocks of a built index.html. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(m[1] ?? '') || !m[2]) continue;
    hashes.push(`'sha256-${crypto.createHash('sha256').update(m[2]).digest('base64')}'`);
  }
  return hashes;
}

/**
 * Where the browser uploads a video file besides this origin: the S3 endpoint of the signed
 * upload form and part URLs (path style when an endpoint is set, the bucket's host on AWS).
 */
export function uploadOrigins(config: Config): string[] {
  if (config.storage !== 's3') return [];
  if (config.s3.endpoint) return [new URL(config.s3.endpoint).origin];
  const { bucket, region } = config.s3;
  return [`https://${bucket}.s3.${region}.amazonaws.com`, `https://s3.${region}.amazonaws.com`];
}

export function appCsp(scriptHashes: string[], connectOrigins: string[]): string {
  return [
    "default-src 'self'",
    // mediainfo.js compiles its WebAssembly module in the probe worker.
    ["script-src 'self' 'wasm-unsafe-eval'", ...scriptHashes].join(' '),
    // Chakra (emotion) writes <style> elements at run time, and React style attributes.
    "style-src 'self' 'unsafe-inline'",
    // Thumbnails and people images (previews are blob: or data: URLs before upload).
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...connectOrigins].join(' '),
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The address the browser used was https (directly, or per a trusted proxy's header). */
function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

function policyFor(url: string, shell: string): string | undefined {
  if (url.startsWith('/assets/data/')) return undefined;
  return url === '/api' || url.startsWith('/api/') ? API_CSP : shell;
}

/**
 * The headers every answer carries besides its policy. Also called for Fastify's router errors
 * (a path that is not valid URL encoding), which are answered before any hook runs.
 */
export function setCommonHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('X-Frame-Options', 'DENY');
  // Reset links and signed asset URLs carry secrets in their query: send no Referer at all.
  reply.header('Referrer-Policy', 'no-referrer');
  // The opener policy is stated, and it is unsafe-none: any stricter value forces a new browsing
  // context group on a first visit, so the browser starts a new renderer process for the app
  // (Lighthouse's mobile run: +60-90 ms on the first screen's main thread, landing 78-89 -> 99-100).
  // Links out are noopener and no secret is reachable through an opener
  // (docs/decisions/security-headers.md).
  reply.header('Cross-Origin-Opener-Policy', 'unsafe-none');
  if (isHttps(request)) {
    reply.header('Strict-Transport-Security', `max-age=${ONE_YEAR_S}`);
  }
}

export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const index = path.join(config.webRoot, 'index.html');
  const hashes = fs.existsSync(index) ? inlineScriptHashes(fs.readFileSync(index, 'utf8')) : [];
  const shellCsp = appCsp(hashes, uploadOrigins(config));

  app.addHook('onSend', async (request, reply, payload) => {
    const csp = policyFor(request.url.split('?')[0] ?? '/', shellCsp);
    if (csp && !reply.hasHeader('Content-Security-Policy')) {
      reply.header('Content-Security-Policy', csp);
    }
    setCommonHeaders(request, reply);
    return payload;
  });
}
