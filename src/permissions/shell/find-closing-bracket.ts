const WORD_BOUNDARY = /[\s;&|()]/;

/**
 * Finds the bracket closing the one at `index` in a shell command line, skipping quoted and
 * escaped text. For `(`, a `#` comment is skipped, and inside `case ... esac` the `)` that ends a
 * pattern does not close the bracket (`$(case x in x) rm ;; esac)`).
 * @returns the index of the closing bracket, or why there is none.
 */
export function findClosingBracket(src: string, index: number, open: '(' | '{', close: ')' | '}'): number | string {
  let depth = 0;
  const caseDepths: number[] = [];
  let j = index;
  while (j < src.length) {
    const c = src[j]!;
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === "'") {
      const end = src.indexOf("'", j + 1);
      if (end === -1) return 'unterminated single quote';
      j = end + 1;
      continue;
    }
    if (c === '"') {
      j += 1;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) return 'unterminated double quote';
      j += 1;
      continue;
    }
    if (open === '(' && j > index && WORD_BOUNDARY.test(src[j - 1]!)) {
      if (c === '#') {
        while (j < src.length && src[j] !== '\n') j++;
        continue;
      }
      const keyword = /^(case|esac)(?=[\s;&|()]|$)/.exec(src.slice(j, j + 5));
      if (keyword) {
        if (keyword[1] === 'case') caseDepths.push(depth);
        else caseDepths.pop();
        j += 4;
        continue;
      }
    }
    if (c === open) depth++;
    else if (c === close) {
      if (caseDepths.length > 0 && caseDepths[caseDepths.length - 1] === depth) {
        j++;
        continue;
      }
      depth--;
      if (depth === 0) return j;
    }
    j++;
  }
  return `unterminated "${open}"`;
}
