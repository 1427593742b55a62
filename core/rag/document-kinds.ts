/**
 * Which knowledge of a kind of document (QueryPlanner, AnswerSkill) may take part in a question: only that serving a
 * kind the documents asked of hold. The kinds are names the core passes on without reading them.
 */

/**
 * The kinds the documents hold (of `kinds`, by job id; of those in `jobIds` when given), or undefined when that is
 * not known: no kinds given, or one of the documents was never told one (read before kinds were).
 */
export function kindsHeld(kinds: Record<string, string | null> | undefined, jobIds?: readonly string[]): Set<string> | undefined {
  if (!kinds) return undefined;
  const held = new Set<string>();
  for (const [jobId, kind] of Object.entries(kinds)) {
    if (jobIds && !jobIds.includes(jobId)) continue;
    if (kind === null) return undefined;
    held.add(kind);
  }
  return held;
}

/** Whether knowledge declared for `served` kinds (none: every kind) takes part where `held` are held (undefined: not known). */
export function servesHeldKind(served: readonly string[] | undefined, held: ReadonlySet<string> | undefined): boolean {
  return served === undefined || held === undefined || served.some((kind) => held.has(kind));
}
