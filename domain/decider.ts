// The shape every aggregate's decider takes: pure functions, no I/O, time from the metadata.
import type { CommandMeta } from './metadata.js';

export interface Decider<Command, Event, State> {
  initialState: State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State, meta: CommandMeta) => Event[];
  streamId: (command: Command) => string;
}
