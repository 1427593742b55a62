/** "report.pdf, page 3", or "budget.xlsx, Sheet Q3" for a unit of a document without pages (the API's `unit`). */
export function placeOf({ filename, page, unit }: { filename: string; page: number; unit?: string }): string {
  return `${filename}, ${unit || `page ${page}`}`;
}

/**
 * Documents without drawn pages (issue 51): a "page" of theirs is a section, a sheet, a slide or a part of a mail. By
 * name, for sources stored before they named their unit.
 */
export function hasNoPageImages(filename: string): boolean {
  return /\.(?:docx|docm|xlsx|xlsm|pptx|pptm|html?|md|markdown|txt|text|log|csv|eml)$/i.test(filename);
}
