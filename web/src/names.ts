/** A session's name from a file name or a question: its first words, at most 60 characters, no file extension. */
export function shortName(text: string): string {
  const plain = text.replace(/\.(pdf|jpe?g)$/i, '').replace(/[_\s]+/g, ' ').trim();
  if (plain.length <= 60) return plain;
  const cut = plain.slice(0, 59);
  const space = cut.lastIndexOf(' ');
  return `${space > 30 ? cut.slice(0, space) : cut}…`;
}
