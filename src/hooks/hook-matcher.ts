const compiled = new Map<string, RegExp>();

/**
 * Compiles a hook `matcher` into a RegExp that must match the whole tool name. `*` and the empty
 * string match every tool. Compiled patterns are cached by source.
 * @throws SyntaxError when `matcher` is not a valid regular expression.
 */
export function compileHookMatcher(matcher: string): RegExp {
  let regExp = compiled.get(matcher);
  if (regExp === undefined) {
    regExp = matcher === '' || matcher === '*' ? /^/ : new RegExp(`^(?:${matcher})$`);
    compiled.set(matcher, regExp);
  }
  return regExp;
}

/** Whether a hook with this `matcher` runs for `toolName`; no matcher or no tool name means yes. */
export function hookMatches(matcher: string | undefined, toolName: string | undefined): boolean {
  if (matcher === undefined || toolName === undefined) return true;
  return compileHookMatcher(matcher).test(toolName);
}
