import { PAGE_BREAK, textPdf } from './make-pdf.js';

/** Two small fee schedules for end-to-end tests: different banks (institutions), facts on known pages. */
export const ACME = await textPdf({
  title: 'Acme Bank fee schedule',
  paragraphs: [
    'Acme Bank charges a monthly maintenance fee of 12 dollars on checking accounts.',
    'The fee is waived when the average balance stays above 1500 dollars.',
    PAGE_BREAK,
    'International wire transfers at Acme Bank cost 45 dollars each.',
  ],
});

export const GLOBEX = await textPdf({
  title: 'Globex Credit Union fee schedule',
  paragraphs: ['Globex Credit Union charges a monthly maintenance fee of 3 dollars on checking accounts.'],
});
