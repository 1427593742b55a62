/**
 * A listwise linear model: per group (a question), a softmax over its rows (sentences or chunks), maximising the
 * probability of the rows labelled 1. Newton steps on the Fisher matrix plus L2: a few exact steps. Shared by
 * bench/train-answerer.ts and bench/squad-cv.ts.
 */
export interface Row {
  x: number[];
  y: number;
}

export function fitListwise(groups: Row[][], features: number, l2: number, iterations = 25): number[] {
  const w = new Array(features).fill(0);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const gradient = new Array(features).fill(0);
    const hessian = Array.from({ length: features }, () => new Array(features).fill(0));
    for (const rows of groups) {
      const z = rows.map(({ x }) => x.reduce((sum, v, i) => sum + v * w[i], 0));
      const top = Math.max(...z);
      const e = z.map((v) => Math.exp(v - top));
      const total = e.reduce((a, b) => a + b, 0);
      const positive = rows.reduce((sum, r, i) => sum + (r.y ? e[i] : 0), 0);
      const mean = new Array(features).fill(0);
      rows.forEach(({ x, y }, k) => {
        const p = e[k] / total;
        const q = y ? e[k] / positive : 0;
        for (let i = 0; i < features; i++) {
          mean[i] += p * x[i];
          gradient[i] += (p - q) * x[i];
          for (let j = 0; j < features; j++) hessian[i][j] += p * x[i] * x[j];
        }
      });
      for (let i = 0; i < features; i++) for (let j = 0; j < features; j++) hessian[i][j] -= mean[i] * mean[j];
    }
    for (let i = 0; i < features; i++) {
      gradient[i] += l2 * groups.length * w[i];
      hessian[i][i] += l2 * groups.length + 1e-9;
    }
    const step = solve(hessian, gradient);
    // Damped: halve the Newton step until the loss falls (a full step can overshoot on skewed features).
    const before = loss(groups, w, l2);
    let scale = 1;
    while (scale > 1e-4 && !(loss(groups, w.map((v, i) => v - scale * step[i]), l2) <= before)) scale /= 2;
    for (let i = 0; i < features; i++) w[i] -= scale * step[i];
    if (Math.max(...step.map((s) => Math.abs(s * scale))) < 1e-6) break;
  }
  return w;
}

/** Negative log-likelihood of the positive rows per group, plus L2. */
function loss(groups: Row[][], w: number[], l2: number): number {
  let total = 0;
  for (const rows of groups) {
    const z = rows.map(({ x }) => x.reduce((sum, v, i) => sum + v * w[i], 0));
    const top = Math.max(...z);
    const all = Math.log(z.reduce((sum, v) => sum + Math.exp(v - top), 0));
    const positive = Math.log(z.reduce((sum, v, k) => sum + (rows[k].y ? Math.exp(v - top) : 0), 0));
    total += all - positive;
  }
  return total + 0.5 * l2 * groups.length * w.reduce((sum, v) => sum + v * v, 0);
}

/** Gaussian elimination with partial pivoting: a x = b. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = col + 1; r < n; r++) {
      const f = m[r][col] / m[col][col];
      for (let c = col; c <= n; c++) m[r][c] -= f * m[col][c];
    }
  }
  const x = new Array(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = m[r][n];
    for (let c = r + 1; c < n; c++) sum -= m[r][c] * x[c];
    x[r] = sum / m[r][r];
  }
  return x;
}
