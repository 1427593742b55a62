import { expect } from 'chai';
import { comparisonAsked, comparisonLine, periodsMeeting } from '../../../core/rag/tables/period-comparison.js';
import { answerFromTables } from '../../../core/rag/tables/table-answer.js';
import { readTableGrids } from '../../../core/rag/tables/table-grid.js';
import { splitUnits } from '../../../core/rag/layout.js';

const FIGURES = [{ period: '2019', value: 9_447 }, { period: '2018', value: 10_995 }, { period: '2017', value: 8_120 }];

describe('comparing one row’s figures across its periods', () => {
  it('reads which periods, or how many, and the test: above or below a threshold, the largest or the smallest', () => {
    expect(comparisonAsked('How many years did Finished goods exceed $10,000 thousand?')).to.deep.equal({ asks: 'count', test: 'above', threshold: 10_000, scale: 1_000 });
    expect(comparisonAsked('In which year was Maintenance less than15,000 thousands?')).to.deep.equal({ asks: 'which', test: 'below', threshold: 15_000 });
    expect(comparisonAsked('In which year were acquisition costs larger?')).to.deep.equal({ asks: 'which', test: 'largest' });
    expect(comparisonAsked('Which period had the lowest churn?')).to.deep.equal({ asks: 'which', test: 'smallest' });
    expect(comparisonAsked('What was the revenue in 2019?'), 'no comparison').to.equal(undefined);
    expect(comparisonAsked('How many years are shown?'), 'a count with nothing to compare').to.equal(undefined);
    expect(comparisonAsked('In how many of the years was the margin positive?')).to.deep.equal({ asks: 'count', test: 'above', threshold: 0 });
    expect(comparisonAsked('In which years was the cash flow negative?')).to.deep.equal({ asks: 'which', test: 'below', threshold: 0 });
  });

  it('finds the periods that meet it; a tie for the largest tells nothing', () => {
    expect(periodsMeeting({ asks: 'count', test: 'above', threshold: 9_000 }, FIGURES).map((f) => f.period)).to.deep.equal(['2019', '2018']);
    expect(periodsMeeting({ asks: 'which', test: 'smallest' }, FIGURES).map((f) => f.period)).to.deep.equal(['2017']);
    expect(periodsMeeting({ asks: 'which', test: 'largest' }, [{ period: 'a', value: 1 }, { period: 'b', value: 1 }])).to.deep.equal([]);
  });

  it('says the answer first, then every period’s figure', () => {
    const met = periodsMeeting({ asks: 'count', test: 'above', threshold: 10_000 }, FIGURES);
    expect(comparisonLine({ asks: 'count', test: 'above', threshold: 10_000 }, 'Finished goods', FIGURES, met))
      .to.equal('1 period (2018): Finished goods above 10,000. (2019: 9,447; 2018: 10,995; 2017: 8,120)');
  });

  it('answers from a table read as rows × columns', () => {
    const grids = readTableGrids(splitUnits(['(In thousands) 2019 2018 2017', 'Raw materials 4,210 3,980 3,650', 'Finished goods 9,447 10,995 8,120'].join('\n')));
    expect(answerFromTables('In which year was the amount of finished goods the largest?', grids)?.line).to.match(/^2018: Finished goods, the largest/);
    expect(answerFromTables('How many years did finished goods exceed 9,000?', grids)?.line).to.match(/^2 periods \(2019 and 2018\): Finished goods above 9,000/);
    // A threshold written with its scale is read in the table's unit: $9.5 million of a table in thousands is 9,500.
    expect(answerFromTables('How many years did finished goods exceed $9.5 million?', grids)?.line).to.match(/^1 period \(2018\): Finished goods above 9,500/);
    expect(answerFromTables('How many years did finished goods exceed $9,000 thousand?', grids)?.line).to.match(/^2 periods \(2019 and 2018\): Finished goods above 9,000/);
  });
});
