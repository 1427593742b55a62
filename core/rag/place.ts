/** Where a passage is, as an answer names it. */
export interface PassagePlace {
  filename: string;
  page: number;
  /** The unit's label, for a document without pages ("Sheet Q3"). */
  unit?: string;
}

/** "page 3", or the unit's own name ("Sheet Q3") where the document has no pages: "page 3" of a workbook misleads. */
export function placeInDocument({ page, unit }: PassagePlace): string {
  return unit ? unit : `page ${page}`;
}

/** "report.pdf, page 3" or "budget.xlsx, Sheet Q3": how a source line names a passage. */
export function passagePlace(passage: PassagePlace): string {
  return `${passage.filename}, ${placeInDocument(passage)}`;
}

/** Each document's unit labels by job id (IngestJob.units): what packing looks a hit's unit up in. */
export type UnitLabels = Readonly<Record<string, readonly string[]>>;

/** The label of the unit a chunk is on, if its document has units and that one has a label. */
export function unitOf(units: UnitLabels | undefined, jobId: string, page: number): string | undefined {
  return units?.[jobId]?.[page - 1] || undefined;
}
