function identity<T>(v: T): T { return v; }
const useFast = Date.now() > 0;

export function genericSpin<T extends number>(n: T): number {
  let x = 0;
  for (let i = 0; i < n; i++) x = (x * 31 + i) % 1000003;
  return x;
}

export function plainSpin(n: number): number {
  let x = 0;
  for (let i = 0; i < n; i++) x = (x * 17 + i) % 1000003;
  return x;
}

// V8 names this "ternarySpin"; the source text has "identity : function("
export const ternarySpin = !useFast ? identity : function (n: number): number {
  let x = 0;
  for (let i = 0; i < n; i++) x = (x * 13 + i) % 1000003;
  return x;
};

const t0 = Date.now();
let acc = 0;
while (Date.now() - t0 < 900) {
  acc += genericSpin(200000) + plainSpin(200000) + (ternarySpin as (n: number) => number)(200000);
}
console.log(acc);
