// The small set of domain errors. The API maps each to the spec's status and string in one place.

export class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The thing addressed does not exist (404). */
export class NotFound extends DomainError {}

/** The request breaks a rule of the spec (422). `details` carries per-field messages. */
export class Invalid extends DomainError {
  readonly details?: Record<string, string>;
  constructor(message: string, details?: Record<string, string>) {
    super(message);
    this.details = details;
  }
}

/** The request conflicts with the current state (409). */
export class Conflict extends DomainError {}

/** The caller may not do this (403). */
export class Forbidden extends DomainError {}
