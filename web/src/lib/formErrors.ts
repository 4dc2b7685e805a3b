/**
 * Which error a form field shows. A field's message follows its value: rules the client checks
 * are re-checked on every change after the first submit (the message goes when the field becomes
 * valid, and comes back if it turns invalid again), and a message from the server stays only while
 * the field still holds the value the server refused.
 */
export function fieldMessage<D extends object>(
  name: string,
  state: {
    /** Messages of the client's own rules for the current values (after a submit). */
    local: Record<string, string>;
    /** The server's field messages of the last failed save. */
    server: Record<string, string>;
    /** The values now, and the values the server refused. */
    draft: D;
    refused: D | null;
  },
): string | undefined {
  if (state.local[name]) return state.local[name];
  const msg = state.server[name];
  if (!msg) return undefined;
  if (state.refused && name in state.draft) {
    const now = (state.draft as Record<string, unknown>)[name];
    const then = (state.refused as Record<string, unknown>)[name];
    if (JSON.stringify(now) !== JSON.stringify(then)) return undefined;
  }
  return msg;
}
