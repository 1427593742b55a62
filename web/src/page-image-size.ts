/**
 * Page images are asked for in a few sizes, so the server's and the browser's caches serve every screen alike
 * (the API renders the longest side at 100..1600 px).
 */
const SIZES = [400, 800, 1200, 1600];
/** Height over width of the tallest usual page (A4 1.41, US letter 1.29): a portrait page's longest side is its height. */
const TALL_PAGE = 1.42;

/**
 * The longest side to ask for, so a page drawn `cssWidth` CSS pixels wide on this screen is sharp and no larger.
 * `heightPerWidth`: of a page already seen, when taller than A4 (a receipt): its longest side is then longer still.
 */
export function pageImageSize(cssWidth: number, pixelRatio: number, heightPerWidth = 0): number {
  const wanted = cssWidth * pixelRatio * Math.max(TALL_PAGE, heightPerWidth);
  return SIZES.find((size) => size >= wanted) ?? SIZES[SIZES.length - 1];
}
