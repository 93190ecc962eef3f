/**
 * The one error-normalising layer: every failed API call becomes an ApiError, whatever the
 * server sent (an RFC 9457 problem document, another body, or nothing because the network failed).
 */
import { fieldName, inWords } from '../i18n/fieldNames';
import type { FieldError, Problem } from './types';

export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly fieldErrors: FieldError[];
  readonly requestId: string | undefined;

  /** `type` is one of the contract's, or `about:blank` (RFC 9457) for a failure that brought no problem document. */
  constructor(problem: Omit<Problem, 'type'> & { type?: string }) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiError';
    this.status = problem.status;
    this.type = problem.type ?? 'about:blank';
    this.title = problem.title;
    this.detail = problem.detail;
    this.fieldErrors = problem.errors ?? [];
    this.requestId = problem.requestId;
  }

  /** The last path segment of `type`, e.g. `validation-failed`, `name-taken`. */
  get kind(): string {
    return this.type.split('/').pop() ?? this.type;
  }
}

function isProblem(body: unknown): body is Problem {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Problem).title === 'string' &&
    typeof (body as Problem).status === 'number'
  );
}

/** Turns whatever a failed response carried into an ApiError. */
export function toApiError(body: unknown, response: Response | undefined): ApiError {
  const status = response?.status ?? 0;
  if (isProblem(body)) {
    return new ApiError({ ...body, errors: Array.isArray(body.errors) ? body.errors : [] });
  }
  const text = typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 300) : undefined;
  return new ApiError({
    type: 'about:blank',
    title: response ? `HTTP ${status} ${response.statusText}`.trim() : 'The control plane cannot be reached',
    status,
    detail: text,
    errors: [],
  });
}

export function networkError(cause: unknown): ApiError {
  return new ApiError({
    type: 'about:blank',
    title: 'The control plane cannot be reached',
    status: 0,
    detail: cause instanceof Error ? cause.message : String(cause),
    errors: [],
  });
}

/** Field path → message (messages for the same field joined), from an ApiError or a rule check. */
export type FieldErrors = Record<string, string>;

/**
 * Maps the API's field errors onto form fields, their messages in words (paths named as people know the fields). `field` is the API's dotted path
 * (`network.subnets[1].subnetId`); `known` lists the form's field paths. A path that is not a
 * form field is attributed to its nearest known ancestor (`fsx.count` → `fsx` when only `fsx`
 * exists); errors that fit nowhere are returned in `unmatched` to show in a form-level alert.
 */
export function mapFieldErrors(
  error: unknown,
  known: readonly string[],
): { fields: FieldErrors; unmatched: FieldError[] } {
  const fields: FieldErrors = {};
  const unmatched: FieldError[] = [];
  if (!(error instanceof ApiError)) return { fields, unmatched };
  for (const fe of error.fieldErrors) {
    const target = nearestKnown(fe.field, known);
    if (target === undefined) {
      unmatched.push(fe);
      continue;
    }
    const message = target === fe.field ? inWords(fe.message) : `${fieldName(fe.field)}: ${inWords(fe.message)}`;
    fields[target] = fields[target] ? `${fields[target]} ${message}` : message;
  }
  return { fields, unmatched };
}

function nearestKnown(field: string, known: readonly string[]): string | undefined {
  let path = field;
  for (;;) {
    if (known.includes(path)) return path;
    const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
    if (cut <= 0) return undefined;
    path = path.slice(0, cut);
  }
}

/** A one-line description for a Flashbar or an Alert. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    // A request that never got an answer: the browser's own words ("Failed to fetch") say too little alone.
    const parts = [error.status === 0 ? `${error.title} (${error.detail ?? 'no answer'}).` : (error.detail ?? error.title)];
    if (error.requestId) parts.push(`(request ${error.requestId})`);
    return parts.join(' ');
  }
  return error instanceof Error ? error.message : String(error);
}
