/*
 * The goals that more than one study measures, each stated once: the studies print their
 * verdicts against these, and the README's goals table quotes them.
 */

/** Worker processes' throughput over the same jobs run in the server process: the isolation's goal. */
export const ISOLATION_GOAL = 0.97

/** quality=auto costs at most this many fixed-quality encodes of the same format at the same size. */
export const AUTO_COST_GOAL = 2
