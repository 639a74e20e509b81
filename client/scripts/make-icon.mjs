// Draws client/media/icon.png (128×128, the Marketplace icon): a dark tile with a teal ring (a
// rollout loop) broken by an amber gap, and a check mark. Pure Node: zlib + a hand-written PNG encoder.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const px = Buffer.alloc(SIZE * SIZE * 4);
const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * t));
const put = (x, y, rgba, alpha = 1) => {
  const i = (y * SIZE + x) * 4;
  const under = [px[i], px[i + 1], px[i + 2]];
  const [r, g, b] = mix(under, rgba, alpha);
  px.set([r, g, b, Math.max(px[i + 3], Math.round(255 * alpha))], i);
};
const coverage = (d, half) => Math.max(0, Math.min(1, half - d + 0.5));

for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    const cx = Math.max(Math.abs(x + 0.5 - 64) - 48, 0);
    const cy = Math.max(Math.abs(y + 0.5 - 64) - 48, 0);
    const tile = coverage(Math.hypot(cx, cy), 16);
    if (tile > 0) put(x, y, mix([27, 35, 48], [17, 24, 34], y / SIZE), tile);
    const r = Math.hypot(x + 0.5 - 64, y + 0.5 - 64);
    const angle = Math.atan2(y + 0.5 - 64, x + 0.5 - 64);
    const ring = coverage(Math.abs(r - 40), 6);
    if (ring > 0) put(x, y, angle > -0.9 && angle < -0.35 ? [245, 180, 60] : [45, 200, 180], ring);
  }
}
const check = [[44, 66], [58, 80], [86, 50]];
for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    let d = Infinity;
    for (let s = 0; s < check.length - 1; s++) {
      const [ax, ay] = check[s];
      const [bx, by] = check[s + 1];
      const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
      d = Math.min(d, Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))));
    }
    const c = coverage(d, 5);
    if (c > 0) put(x, y, [235, 240, 245], c);
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr.set([8, 6, 0, 0, 0], 8);
const rows = Buffer.concat(Array.from({ length: SIZE }, (_, y) => Buffer.concat([Buffer.from([0]), px.subarray(y * SIZE * 4, (y + 1) * SIZE * 4)])));
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
writeFileSync(new URL('../media/icon.png', import.meta.url), png);
