/**
 * Page images are asked for in a few sizes, so the server's and the browser's caches serve every screen alike
 * (the API renders the longest side at 100..1600 px).
 */
const SIZES = [400, 800, 1200, 1600];
/** Height over width of the tallest usual page (A4 1.41, US letter 1.29): a portrait page's longest side is its height. */
const TALL_PAGE = 1.42;

/** The longest side to ask for, so a page drawn `cssWidth` CSS pixels wide on this screen is sharp and no larger. */
export function pageImageSize(cssWidth: number, pixelRatio: number): number {
  const wanted = cssWidth * pixelRatio * TALL_PAGE;
  return SIZES.find((size) => size >= wanted) ?? SIZES[SIZES.length - 1];
}
