// Errors of the statistics core (spec stats-semantics.md section 1: invalid arguments = Python ValueError).

/** An invalid argument to a statistics function; the conformance runner reports it as `ValueError`. */
export class StatsValueError extends Error {
  readonly pythonType = 'ValueError';
  constructor(message: string) {
    super(message);
    this.name = 'StatsValueError';
  }
}
