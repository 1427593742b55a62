import { FakeDocumentReader } from '../fakes/fake-document-reader.js';
import { documentReaderContract } from './document-reader.contract.js';

documentReaderContract('FakeDocumentReader (text pages stand in for a PDF)', () => new FakeDocumentReader(), {
  pdf: {
    bytes: Buffer.from('The first page is about tides.\fThe second page is about the moon.'),
    pages: 2,
    textOnPage: { 1: ['about tides'], 2: ['about the moon'] },
  },
  jpeg: { bytes: FakeDocumentReader.jpeg('A receipt: total 24,23 EUR'), text: ['total 24,23 EUR'] },
});
