import { documentKindClassifier } from '../../adapters/document-kinds/index.js';
import { documentClassifierContract } from './document-classifier.contract.js';

documentClassifierContract('adapters/document-kinds (page features and scores)', () => documentKindClassifier);
