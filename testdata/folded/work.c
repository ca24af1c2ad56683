#include <stdio.h>
static volatile double sink;
__attribute__((noinline)) double slow_hash(int n) { volatile double s = 0; for (int i = 0; i < n; i++) s += (i % 7) * 1.0001; return s; }
__attribute__((noinline)) double parse(int n) { volatile double s = 0; for (int i = 0; i < n; i++) s += i * 0.5; return s + slow_hash(n * HASHX); }
__attribute__((noinline)) double render(int n) { volatile double s = 0; for (int i = 0; i < n; i++) s += i * 0.25; return s; }
int main(void) { for (int r = 0; r < 300; r++) { sink += parse(200000); sink += render(400000); } printf("%f\n", sink); return 0; }
