/**
 * A decider is the pure heart of an aggregate: it decides which events a
 * command produces given the current state, and folds events into state.
 * It never sees I/O, the real clock or randomness: those arrive in the command.
 */
export interface Decider<Command, State, Event> {
  readonly initialState: State;
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
}

/** A domain event as the domain sees it: a type tag and its data. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
}

export function fold<State, Event>(
  decider: Pick<Decider<unknown, State, Event>, 'evolve' | 'initialState'>,
  events: readonly Event[],
): State {
  return events.reduce((s, e) => decider.evolve(s, e), decider.initialState);
}
