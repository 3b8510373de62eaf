/**
 * A decider is the pure heart of an aggregate: it decides which events a
 * command produces given the current state, and folds events into state.
 * It never sees I/O, the real clock or randomness: those arrive in the command.
 */
export interface Decider<Command, State, Event> {
  readonly initialState: State;
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  /**
   * Optional: folds several events at once, with the same result as evolving one by one. For a state holding a
   * collection that evolve must copy per event (quadratic over a long stream), so that loading costs one copy.
   */
  evolveMany?(state: State, events: readonly Event[]): State;
}

/** A domain event as the domain sees it: a type tag and its data. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
}

/** Evolves `state` by `events`, at once where the decider can (evolveMany). */
export function evolveAll<State, Event>(
  decider: Pick<Decider<unknown, State, Event>, 'evolve' | 'evolveMany'>,
  state: State,
  events: readonly Event[],
): State {
  if (decider.evolveMany && events.length > 1) return decider.evolveMany(state, events);
  return events.reduce((s, e) => decider.evolve(s, e), state);
}

export function fold<State, Event>(
  decider: Pick<Decider<unknown, State, Event>, 'evolve' | 'evolveMany' | 'initialState'>,
  events: readonly Event[],
): State {
  return evolveAll(decider, decider.initialState, events);
}
