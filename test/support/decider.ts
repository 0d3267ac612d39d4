// given/when/then for deciders: given past events, when a command, then new events or an error.
import type { Test } from 'tap';
import type { Decider } from '../../domain/decider.js';
import type { CommandMeta } from '../../domain/metadata.js';

export const testMeta: CommandMeta = {
  now: '2026-01-02T03:04:05.000Z',
  actor: { kind: 'system', id: 'test' },
  correlationId: '00000000-0000-4000-8000-000000000001',
};

export const specFor =
  <C, E, S>(decider: Decider<C, E, S>) =>
  (t: Test, given: E[]) => ({
    when: (command: C, meta: CommandMeta = testMeta) => {
      const run = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState), meta);
      return {
        then: (expected: E[]) => t.same(run(), expected),
        thenThrows: (errorClass: new (...args: any[]) => Error, message?: string) =>
          t.throws(run, message === undefined ? errorClass : Object.assign(new errorClass(message), {})),
      };
    },
  });
