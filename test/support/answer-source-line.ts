/**
 * The pages an extractive answer's closing line names, by the number its quotes cite them with:
 * "… Sources: [1] a.pdf, page 4; [2] b.pdf, page 1" gives 1 → "a.pdf, page 4", 2 → "b.pdf, page 1".
 */
export function sourceLine(answer: string): Map<number, string> {
  const line = answer.split('Sources: ').at(-1) ?? '';
  return new Map([...line.matchAll(/\[(\d+)\] (.+?, page \d+)/g)].map((m) => [Number(m[1]), m[2]]));
}
