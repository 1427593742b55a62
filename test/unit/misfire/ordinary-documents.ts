/**
 * Ordinary documents for the misfire suite (test/unit/misfire/misfire.test.ts): a lease, a paper, a product manual, a
 * German and a French contract, written for the test with the lines that drew domain rules before (amounts with a
 * "Total" line, years, "dividends", dates); pages separated by form feeds (test/fakes/fake-document-reader.ts).
 */
export const LEASE = [
  ['RESIDENTIAL LEASE AGREEMENT',
    'This lease is made on 1 March 2024 between Harbour Homes Ltd (the landlord) and Maria Keller (the tenant) for the flat at 4 Mill Lane, Bristol.',
    '1. Term. The lease runs for twelve months from 1 April 2024 and may be renewed by written agreement of both parties.',
    '2. Rent. The tenant pays a monthly rent of 950.00 on the first day of each month by bank transfer.',
    '3. Deposit. On signing, the tenant paid a security deposit of 1,900.00, which the landlord holds in a government-approved scheme.',
    'Move-in costs paid on signing',
    'Key cutting 25.00',
    'Cleaning 175.00',
    'Total 200.00'].join('\n'),
  ['4. Repairs. The landlord keeps the structure, the roof and the heating in repair; the tenant reports any damage within seven days.',
    '5. Pets. No pets may be kept in the flat without the landlord’s written consent, which will not be unreasonably withheld.',
    '6. Ending the lease. Either party may end the lease after six months with two months’ written notice.',
    'Signed by the landlord and the tenant on 1 March 2024.'].join('\n'),
].join('\f');

export const PAPER = [
  ['Railways and Capital Markets in Europe, 1890–1925',
    'Abstract. We study how European railway companies financed their networks before and after the First World War.',
    '1 Introduction',
    'The outbreak of World War I in August 1914 closed the major stock exchanges for several months. Railway companies, which had paid steady dividends since the 1890s, cut or suspended them, and their bonds lost much of their value during the war.',
    'Investors moved from railway shares to government bonds. We use the annual reports of twelve companies to trace how much they paid to shareholders and lenders over the period.'].join('\n'),
  ['2 Data and method',
    'Our sample covers the years 1890 to 1925. For each company we record the dividend it declared, the interest it paid and the length of its network.',
    'Table 1 shows the average dividend rate of the sample, in percent of the nominal share capital.',
    'Period Average dividend',
    '1890–1913 4.8',
    '1914–1918 1.9',
    '1919–1925 2.6',
    '3 Results',
    'Dividends fell by more than half during the war and never returned to their pre-war level. The companies that had paid the highest dividends before 1914 cut them the most.',
    'References',
    'Smith, J. (1998). Railways and finance. Journal of Economic History 58, 1–30.'].join('\n'),
].join('\f');

export const MANUAL = [
  ['AURORA 300 COFFEE MACHINE',
    'User manual',
    'Thank you for choosing the Aurora 300. Read this manual before you use the machine for the first time.',
    'Getting started',
    'Fill the water tank with fresh cold water up to the MAX mark. Switch the machine on; the light blinks while it heats and stays on when it is ready.',
    'Making coffee',
    'Put one scoop of ground coffee in the filter, close the lid and press the cup button. One cup takes about 40 seconds.'].join('\n'),
  ['Descaling',
    'Descale the machine every three months, or when the light blinks red. Use the descaling liquid sold for the machine.',
    'Technical data',
    'Power 1,200 W',
    'Water tank 1.2 l',
    'Weight 3.4 kg',
    'Warranty',
    'The machine comes with a two-year warranty from the date of purchase. Keep your proof of purchase; repairs under warranty are free.'].join('\n'),
].join('\f');

export const GERMAN_LEASE = [
  ['MIETVERTRAG',
    'Zwischen der Wohnbau Nord GmbH (Vermieterin) und Herrn Jonas Weber (Mieter) wird folgender Mietvertrag geschlossen.',
    '§ 1 Mietsache. Vermietet wird die Wohnung im zweiten Stock des Hauses Lindenstraße 8 in 20095 Hamburg.',
    '§ 2 Miete. Die monatliche Miete beträgt 820,00 Euro und ist bis zum dritten Werktag eines jeden Monats zu zahlen.',
    '§ 3 Kaution. Der Mieter zahlt eine Kaution in Höhe von drei Monatsmieten, also 2.460,00 Euro, in drei Raten.',
    'Nebenkosten monatlich',
    'Heizung 95,00',
    'Wasser 35,00',
    'Summe 130,00'].join('\n'),
  ['§ 4 Kündigung. Der Vertrag kann von beiden Seiten mit einer Frist von drei Monaten gekündigt werden.',
    '§ 5 Hausordnung. Die Hausordnung ist Teil dieses Vertrages. Ruhezeiten gelten von 22 Uhr bis 6 Uhr.',
    'Hamburg, den 15. Januar 2024'].join('\n'),
].join('\f');

export const FRENCH_LEASE = [
  ['CONTRAT DE LOCATION',
    'Entre la société Logis du Rhône (le bailleur) et Madame Claire Martin (la locataire), il est convenu ce qui suit.',
    'Article 1 – Objet. Le bailleur loue à la locataire un appartement de trois pièces situé 12 rue de la République à Lyon.',
    'Article 2 – Loyer. Le loyer mensuel est de 780,00 euros, payable le premier jour de chaque mois.',
    'Article 3 – Dépôt de garantie. La locataire a versé un dépôt de garantie de 780,00 euros à la signature du contrat.',
    'Charges mensuelles',
    'Eau 30,00',
    'Entretien 20,00',
    'Total 50,00'].join('\n'),
  ['Article 4 – Durée. Le contrat est conclu pour une durée de trois ans à compter du 1er février 2024.',
    'Article 5 – Résiliation. La locataire peut donner congé à tout moment avec un préavis d’un mois.',
    'Fait à Lyon, le 20 janvier 2024.'].join('\n'),
].join('\f');

/** A till receipt as its OCR reads (short lines, prices, the total, cash and change, VAT): the receipts plug-in's kind. */
export const TILL_RECEIPT = ['FRISCHMARKT', 'Hauptstraße 5', '20095 Hamburg', 'EUR', 'BANANEN 1,29 B', 'MILCH 3,5% 1,19 B', 'VOLLKORNBROT 2,49 B',
  'KAFFEE 5,99 B', 'BUTTER 2,29 B', 'SUMME 13,25', 'Geg. BAR 20,00', 'Rückgeld 6,75', 'MwSt 7% 0,87', '12.03.2024 10:41'].join('\n');

/** A report's income statement: the financial-statement plug-in's kind. */
export const STATEMENT = ['CONSOLIDATED STATEMENTS OF INCOME', '(In millions) 2019 2018 2017', 'Net sales 39,117 36,397 34,350', 'Operating income 4,210 3,905 3,650',
  'Net income 2,539 2,313 2,102', 'Cash dividends declared 1,025 980 950', 'Total assets 59,268 55,556 52,001'].join('\n');
