/** Receipts as OCR read corpus ones (shared/data/images), for the receipts plug-in's unit tests. */
// As OCR read corpus receipts (a DIY store's with its card slip in another passage; a grocer's paid in cash).
export const HARDWARE = [
  'HORNBACH Baumarkt AG', 'Filiale 547', '2 Rolle x 4,85', 'PARKETTZUBEHOR 9,70 1', 'SELITstop Komfort-Fe 49,80 1',
  'Bodenunterlage SELIT 92,501', 'SUMME [3] EUR 152,00', 'GEGEBEN ec-Karte EUR 152,00',
].join('\n');
export const CARD_SLIP = [
  'HORNBACH Baumarkt AG Filiale 547', 'Terminal -ID : 65220902', 'TA-Nr 133813 BNr 7074 Kartenzahlung girocard', 'EUR 152,00',
  'Karte 1 glltig bis ##/## Datum 23.09.16 14:05 Uhr Zahlung erfolgt',
].join('\n');
export const GROCER = [
  'LDL Warburger StraBe 130 33100 Paderborn EUR', 'Emmentaler Stick 2,59 x 2 5,18 4', 'Bulgur-Kréauter 0,99 x 2 1,98 A',
  'zu zahlen 7,16', 'Bar 10,00', 'Riickgeld ; -2,84', 'MWST% MNST + Netto = Brufto', 'A 7% 0,47 6,69 7,16', '3182 3 15:54 02.03.2020',
].join('\n');
// The total's comma lost by OCR.
export const DRUGSTORE = [
  'Mein Drogeriemarkt', '27.02.2020 15:56 Bed.Nr.:120 Kasse 02', '662034502022 ZEISS BRILLENPUTZTUC €1,95 4', 'Total £1195',
  'far £2,00 Riickgeld (Bar) £0,05', 'A 19% 1.64 0,31 1,95',
].join('\n');
