const api: Record<string, (n: number) => number> = {};

export function multiLine(
  n: number,
): number {
  let x = 0;
  for (let i = 0; i < n; i++) x = (x * 31 + i) % 1000003;
  return x;
}

export function multiGeneric<P extends number>(
  n: P,
): number {
  let x = 0;
  for (let i = 0; i < n; i++) x = (x * 17 + i) % 1000003;
  return x;
}

export function oneLine(n: number): number {
  let x = 0;
  for (let i = 0; i < n; i++) x = (x * 13 + i) % 1000003;
  return x;
}
api.multiLine = multiLine; api.multiGeneric = multiGeneric; api.oneLine = oneLine;

const t0 = Date.now();
let acc = 0;
while (Date.now() - t0 < 900) acc += api.multiLine(200000) + api.multiGeneric(200000) + api.oneLine(200000);
console.log(acc);
