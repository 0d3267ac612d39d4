// Flat-lay outlines of the demo garments, drawn on an 800×1000 canvas. Each is a few paths: the
// cloth (main colour, with the print laid over it), trims (soles, buttons, lenses) and seam lines.
// Deliberately plain shapes: enough for a shopper and a colour reader to see what the product is.
import type { GarmentKind } from '../../domain/demo-catalogue/generate.js';

export interface Paint {
  main: string;
  /** Outline and seam colour: the main colour darkened. */
  dark: string;
  trim: string;
  print: boolean;
  back: boolean;
}

type Draw = (p: Paint) => string;

export const cloth = (p: Paint, d: string): string =>
  `<path d="${d}" fill="${p.main}"/>${p.print ? `<path d="${d}" fill="url(#print)"/>` : ''}<path d="${d}" fill="none" stroke="${p.dark}" stroke-width="5" stroke-linejoin="round"/>`;
const seam = (p: Paint, d: string, width = 4) => `<path d="${d}" fill="none" stroke="${p.dark}" stroke-width="${width}" stroke-linecap="round" opacity="0.7"/>`;
const trim = (p: Paint, d: string) => `<path d="${d}" fill="${p.trim}" stroke="${p.dark}" stroke-width="4" stroke-linejoin="round"/>`;
const band = (p: Paint, d: string) => `<path d="${d}" fill="${p.dark}" opacity="0.35"/>`;
const buttons = (p: Paint, x: number, ys: number[], r = 9) => ys.map((y) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${p.trim}" stroke="${p.dark}" stroke-width="3"/>`).join('');
const strap = (p: Paint, d: string, width: number) =>
  `<path d="${d}" fill="none" stroke="${p.dark}" stroke-width="${width + 8}" stroke-linecap="round"/><path d="${d}" fill="none" stroke="${p.main}" stroke-width="${width}" stroke-linecap="round"/>`;
const front = (p: Paint, svg: string) => (p.back ? '' : svg);
/** Side views and objects show their other side as a mirror image. */
const mirrored = (p: Paint, svg: string) => (p.back ? `<g transform="translate(800 0) scale(-1 1)">${svg}</g>` : svg);

const TEE = 'M300 170 Q400 225 500 170 L640 215 L730 370 L630 420 L590 350 L590 860 L210 860 L210 350 L170 420 L70 370 L160 215 Z';
const LONG_SLEEVES = 'M310 160 L490 160 L620 205 L700 640 L620 660 L575 340 L580 870 L220 870 L225 340 L180 660 L100 640 L180 205 Z';
const TROUSERS = 'M250 110 L550 110 L600 900 L430 900 L400 380 L370 900 L200 900 Z';
const SHORTS = 'M240 250 L560 250 L610 620 L425 640 L400 430 L375 640 L190 620 Z';
const COAT = 'M300 110 L500 110 L640 170 L720 720 L645 740 L590 360 L600 920 L200 920 L210 360 L155 740 L80 720 L160 170 Z';
const JACKET = 'M300 150 L500 150 L640 210 L715 640 L640 660 L590 390 L595 800 L205 800 L210 390 L160 660 L85 640 L160 210 Z';
const DRESS = 'M330 120 L365 120 Q400 190 435 120 L470 120 L490 360 Q470 400 480 420 L650 880 Q400 920 150 880 L320 420 Q330 400 310 360 Z';
const SNEAKER = 'M150 600 L170 470 Q260 450 330 400 L430 385 Q470 430 530 450 L640 500 Q695 530 690 600 Z';

const tee: Draw = (p) => cloth(p, TEE) + seam(p, p.back ? 'M300 170 Q400 195 500 170' : 'M300 170 Q400 250 500 170', 8) + seam(p, 'M630 420 L720 375 M170 420 L80 375');

const shirtBody = (p: Paint, collar: boolean) =>
  cloth(p, LONG_SLEEVES) +
  seam(p, 'M620 660 L700 640 M180 660 L100 640 M575 340 L620 205 M225 340 L180 205') +
  (collar ? cloth({ ...p, print: false }, 'M310 160 L400 235 L490 160 L470 120 L330 120 Z') + seam(p, 'M400 235 L400 150') : seam(p, p.back ? 'M310 160 Q400 185 490 160' : 'M310 160 Q400 280 490 160', 7)) +
  (p.back ? seam(p, 'M225 260 Q400 290 575 260') : seam(p, `M400 ${collar ? 235 : 280} L400 870`) + buttons(p, 400, collar ? [290, 380, 470, 560, 650, 740, 820] : [330, 430, 530]));

const knit: Draw = (p) => cloth(p, LONG_SLEEVES) + band(p, 'M220 820 L580 820 L580 870 L220 870 Z M620 660 L700 640 L693 600 L614 620 Z M180 660 L100 640 L107 600 L186 620 Z') + seam(p, p.back ? 'M310 160 Q400 190 490 160' : 'M310 160 Q400 250 490 160', 12);

const hoodie: Draw = (p) =>
  cloth(p, 'M300 175 Q290 50 400 40 Q510 50 500 175 Q400 240 300 175 Z') + knit(p) + front(p, seam(p, 'M290 620 L510 620 L545 770 L255 770 Z') + seam(p, 'M380 220 L370 360 M420 220 L430 360', 5));

const jeansDetail = (p: Paint) => front(p, seam(p, 'M400 150 L400 330 Q400 360 430 360') + seam(p, 'M255 170 Q320 200 330 150 M545 170 Q480 200 470 150', 5)) + (p.back ? seam(p, 'M280 210 L360 210 L355 300 L320 320 L285 300 Z M440 210 L520 210 L515 300 L480 320 L445 300 Z') : '');

const drawings: Record<GarmentKind, Draw> = {
  tshirt: tee,
  polo: (p) => tee(p) + front(p, cloth({ ...p, print: false }, 'M300 170 L400 215 L350 255 Z M500 170 L400 215 L450 255 Z') + seam(p, 'M400 215 L400 330') + buttons(p, 400, [260, 310], 7)),
  shirt: (p) => shirtBody(p, true),
  blouse: (p) => shirtBody(p, false),
  knit,
  hoodie,
  tank: (p) => cloth(p, 'M320 140 L355 140 Q400 240 445 140 L480 140 Q490 280 560 330 L570 860 L230 860 L240 330 Q310 280 320 140 Z'),
  jeans: (p) => cloth(p, TROUSERS) + band(p, 'M250 110 L550 110 L552 150 L248 150 Z') + jeansDetail(p),
  trousers: (p) => cloth(p, TROUSERS) + band(p, 'M250 110 L550 110 L552 150 L248 150 Z') + seam(p, 'M310 160 L290 890 M490 160 L510 890', 3) + front(p, seam(p, 'M400 150 L400 330')),
  shorts: (p) => cloth(p, SHORTS) + band(p, 'M240 250 L560 250 L563 290 L237 290 Z') + front(p, seam(p, 'M400 290 L400 420')),
  skirt: (p) => cloth(p, 'M290 180 L510 180 L620 820 Q400 860 180 820 Z') + band(p, 'M290 180 L510 180 L515 220 L285 220 Z') + seam(p, 'M350 230 L300 830 M450 230 L500 835', 3),
  dress: (p) => cloth(p, DRESS) + seam(p, 'M330 120 L345 60 M470 120 L455 60', 8) + seam(p, 'M312 385 Q400 410 488 385', 4),
  jumpsuit: (p) =>
    cloth(p, 'M300 120 L350 120 Q400 190 450 120 L500 120 L620 200 L660 330 L590 350 L560 290 L565 500 L600 900 L430 900 L400 560 L370 900 L200 900 L235 500 L240 290 L210 350 L140 330 L180 200 Z') +
    band(p, 'M235 480 L565 480 L566 520 L234 520 Z'),
  romper: (p) => cloth(p, 'M290 220 L350 220 Q400 280 450 220 L510 220 L630 300 L600 400 L560 380 L570 560 L610 770 L430 780 L400 650 L370 780 L190 770 L230 560 L240 380 L200 400 L170 300 Z') + front(p, buttons(p, 400, [300, 360, 420])),
  coat: (p) => cloth(p, COAT) + (p.back ? seam(p, 'M400 600 L400 920') : band(p, 'M300 110 L365 110 L400 430 L320 250 Z M500 110 L435 110 L400 430 L480 250 Z') + seam(p, 'M400 430 L400 920') + buttons(p, 360, [500, 620, 740], 12) + buttons(p, 440, [500, 620, 740], 12)),
  jacket: (p) => cloth(p, JACKET) + seam(p, 'M640 660 L715 640 M160 660 L85 640') + (p.back ? '' : band(p, 'M300 150 L360 150 L400 400 L320 270 Z M500 150 L440 150 L400 400 L480 270 Z') + seam(p, 'M400 400 L400 800') + buttons(p, 420, [470, 580, 690], 11)),
  puffer: (p) => cloth(p, JACKET) + seam(p, 'M210 300 Q400 320 590 300 M212 420 Q400 440 592 420 M214 540 Q400 560 594 540 M216 660 Q400 680 596 660 M180 400 L620 400', 5) + front(p, seam(p, 'M400 150 L400 800', 6)) + cloth({ ...p, print: false }, 'M300 150 L500 150 L490 95 Q400 70 310 95 Z'),
  sneaker: (p) => mirrored(p, cloth(p, SNEAKER) + trim(p, 'M130 600 L705 600 Q712 650 685 662 L145 662 Q120 645 130 600 Z') + seam(p, 'M350 420 L420 470 M380 405 L450 455 M410 395 L475 440 M560 470 Q600 530 690 590 M170 470 L175 600')),
  boot: (p) => mirrored(p, cloth(p, 'M210 180 L410 180 L420 500 Q520 520 640 570 Q700 600 690 640 L205 640 Z') + trim(p, 'M195 640 L700 640 Q705 690 680 700 L195 700 Z') + seam(p, 'M215 240 L405 240 M300 260 L310 480')),
  heel: (p) => mirrored(p, cloth(p, 'M150 600 Q190 520 300 520 Q420 520 470 470 L600 430 Q660 420 660 470 L650 560 Q600 540 560 560 L340 640 Q210 670 150 600 Z') + trim(p, 'M590 560 L640 560 L615 790 L605 790 Z')),
  sandal: (p) => mirrored(p, trim(p, 'M130 620 Q140 560 300 560 L640 560 Q700 560 700 610 Q700 650 640 650 L200 650 Q130 650 130 620 Z') + strap(p, 'M260 570 Q300 470 360 570', 30) + strap(p, 'M430 570 Q480 450 540 570', 30)),
  loafer: (p) => mirrored(p, cloth(p, 'M140 600 Q150 510 300 500 L460 470 Q560 470 640 520 Q690 560 680 600 Z') + trim(p, 'M130 600 L690 600 Q695 635 670 640 L140 640 Q125 630 130 600 Z') + seam(p, 'M300 520 Q350 560 420 520 M330 540 L400 540', 6)),
  tote: (p) => strap(p, 'M280 390 Q280 170 400 170 Q520 170 520 390', 24) + cloth(p, 'M200 380 L600 380 L640 860 L160 860 Z') + seam(p, 'M205 420 L595 420', 3),
  crossbody: (p) => strap(p, 'M235 480 Q250 90 400 90 Q550 90 565 480', 16) + cloth(p, 'M220 470 L580 470 L590 760 Q400 790 210 760 Z') + front(p, cloth({ ...p, print: false }, 'M220 470 L580 470 L580 610 Q400 670 220 610 Z') + trim(p, 'M385 625 L415 625 L415 660 L385 660 Z')),
  backpack: (p) => strap(p, 'M350 240 Q400 170 450 240', 16) + cloth(p, 'M240 240 Q240 200 300 200 L500 200 Q560 200 560 240 L575 860 L225 860 Z') + front(p, cloth({ ...p, print: false }, 'M280 560 L520 560 L530 820 L270 820 Z') + seam(p, 'M240 320 L560 320')),
  clutch: (p) => cloth(p, 'M150 420 L650 420 L650 680 L150 680 Z') + front(p, cloth({ ...p, print: false }, 'M150 420 L650 420 L400 590 Z') + trim(p, 'M385 575 L415 575 L415 605 L385 605 Z')),
  belt: (p) => cloth(p, 'M140 470 L730 470 Q760 505 730 540 L140 540 Z') + `<rect x="70" y="445" width="100" height="120" rx="14" fill="none" stroke="${p.trim}" stroke-width="16"/>` + [520, 580, 640].map((x) => `<circle cx="${x}" cy="505" r="7" fill="${p.dark}"/>`).join(''),
  scarf: (p) => cloth(p, 'M300 90 L500 90 L520 860 L280 860 Z') + cloth(p, 'M300 90 L500 90 L640 260 L440 300 Z') + seam(p, Array.from({ length: 12 }, (_, i) => `M${290 + i * 20} 860 L${290 + i * 20} 920`).join(' '), 5),
  gloves: (p) => cloth(p, 'M300 860 L300 560 L250 470 Q240 430 280 430 L330 500 L330 300 Q350 270 370 300 L375 460 L390 250 Q410 220 430 250 L425 460 L450 280 Q470 250 490 280 L475 480 L520 340 Q540 315 555 345 L510 560 L510 860 Z') + band(p, 'M300 760 L510 760 L510 860 L300 860 Z'),
  wallet: (p) => cloth(p, 'M200 360 Q200 330 230 330 L570 330 Q600 330 600 360 L600 640 Q600 670 570 670 L230 670 Q200 670 200 640 Z') + front(p, seam(p, 'M240 400 L560 400 M240 460 L560 460 M240 520 L560 520', 5)),
  tie: (p) => cloth(p, 'M365 200 L435 200 L490 780 L400 880 L310 780 Z') + cloth(p, 'M355 110 L445 110 L430 200 L370 200 Z'),
  watch: (p) => cloth(p, 'M345 90 L455 90 L455 910 L345 910 Z') + `<circle cx="400" cy="500" r="140" fill="${p.trim}" stroke="${p.dark}" stroke-width="10"/><circle cx="400" cy="500" r="112" fill="#f7f5f0"/>` + seam(p, 'M400 500 L400 420 M400 500 L460 530', 8),
  necklace: (p) => strap(p, 'M230 130 Q210 560 400 630', 9) + strap(p, 'M570 130 Q590 560 400 630', 9) + cloth(p, 'M400 620 Q470 700 400 790 Q330 700 400 620 Z'),
  ring: (p) => `<circle cx="400" cy="540" r="170" fill="none" stroke="${p.dark}" stroke-width="64"/><circle cx="400" cy="540" r="170" fill="none" stroke="${p.main}" stroke-width="52"/>` + cloth(p, 'M330 380 L470 380 L440 320 L360 320 Z'),
  earrings: (p) => [260, 540].map((x) => `<circle cx="${x}" cy="540" r="120" fill="none" stroke="${p.dark}" stroke-width="34"/><circle cx="${x}" cy="540" r="120" fill="none" stroke="${p.main}" stroke-width="26"/>`).join('') + buttons({ ...p, trim: p.main }, 260, [410], 22) + buttons({ ...p, trim: p.main }, 540, [410], 22),
  bracelet: (p) => `<ellipse cx="400" cy="520" rx="250" ry="170" fill="none" stroke="${p.dark}" stroke-width="66"/><ellipse cx="400" cy="520" rx="250" ry="170" fill="none" stroke="${p.main}" stroke-width="56"/>`,
  cap: (p) => mirrored(p, cloth(p, 'M200 560 Q210 300 400 290 Q590 300 600 560 Z') + cloth({ ...p, print: false }, 'M560 540 Q680 540 730 600 Q660 640 560 600 Z') + seam(p, 'M400 290 L400 560 M300 310 Q270 430 280 560') + buttons({ ...p, trim: p.main }, 400, [290], 14)),
  beanie: (p) => cloth(p, 'M230 700 L230 480 Q230 240 400 240 Q570 240 570 480 L570 700 Z') + band(p, 'M230 580 L570 580 L570 700 L230 700 Z') + seam(p, 'M290 600 L290 690 M340 600 L340 690 M400 600 L400 690 M460 600 L460 690 M510 600 L510 690', 4),
  hat: (p) => cloth(p, 'M120 560 Q400 460 680 560 Q400 680 120 560 Z') + cloth(p, 'M280 560 L300 330 Q400 280 500 330 L520 560 Q400 590 280 560 Z') + `<path d="M286 490 Q400 520 514 490 L517 530 Q400 560 283 530 Z" fill="${p.trim}"/>`,
  sunglasses: (p) => glasses(p, 0.55),
  glasses: (p) => glasses(p, 0),
  socks: (p) => [0, 250].map((dx) => cloth(p, `M${210 + dx} 180 L${370 + dx} 180 L${370 + dx} 640 Q${370 + dx} 780 ${260 + dx} 780 L${150 + dx} 780 Q${90 + dx} 780 ${90 + dx} 715 Q${90 + dx} 650 ${160 + dx} 630 L${210 + dx} 610 Z`) + band(p, `M${210 + dx} 180 L${370 + dx} 180 L${370 + dx} 260 L${210 + dx} 260 Z`)).join(''),
  tights: (p) => cloth(p, 'M250 100 L550 100 L565 320 L525 890 Q505 935 455 925 L435 430 L400 370 L365 430 L345 925 Q295 935 275 890 L235 320 Z') + band(p, 'M250 100 L550 100 L552 140 L248 140 Z'),
  pyjamas: (p) => `<g transform="translate(40 20) scale(0.6)">${shirtBody(p, true)}</g><g transform="translate(330 330) scale(0.6)">${drawings.trousers(p)}</g>`,
  robe: (p) => cloth(p, COAT) + front(p, band(p, 'M300 110 L380 110 L420 560 L330 300 Z')) + `<path d="M205 480 L595 480 L595 520 L205 520 Z" fill="${p.dark}" opacity="0.45"/>` + strap(p, 'M420 510 L380 700 M430 510 L470 690', 16),
  swimsuit: (p) => cloth(p, 'M320 150 L360 150 Q400 260 440 150 L480 150 Q480 330 540 420 Q520 560 560 720 Q470 720 400 800 Q330 720 240 720 Q280 560 260 420 Q320 330 320 150 Z'),
  bikini: (p) => cloth(p, 'M200 380 Q250 250 330 220 L390 380 Q300 400 200 380 Z M600 380 Q550 250 470 220 L410 380 Q500 400 600 380 Z') + seam(p, 'M200 380 L600 380 M330 220 L360 120 M470 220 L440 120', 5) + cloth(p, 'M240 560 L560 560 Q520 650 430 730 L370 730 Q280 650 240 560 Z'),
  briefs: (p) => cloth(p, 'M220 350 L580 350 L580 430 Q510 530 440 650 L360 650 Q290 530 220 430 Z') + trim(p, 'M220 350 L580 350 L580 395 L220 395 Z'),
  bra: (p) => cloth(p, 'M170 540 Q180 380 320 360 L395 470 Q360 570 170 540 Z M630 540 Q620 380 480 360 L405 470 Q440 570 630 540 Z') + band(p, 'M170 540 L630 540 L630 580 L170 580 Z') + seam(p, 'M320 360 L330 170 M480 360 L470 170', 8),
  boxers: (p) => cloth(p, 'M220 300 L580 300 L630 640 L425 660 L400 480 L375 660 L170 640 Z') + trim(p, 'M220 300 L580 300 L582 350 L218 350 Z') + front(p, buttons(p, 400, [400, 440], 7)),
  candle: (p) =>
    `<rect x="240" y="360" width="320" height="460" rx="34" fill="${p.main}" stroke="${p.dark}" stroke-width="6"/><rect x="290" y="520" width="220" height="150" rx="8" fill="#f8f6f1" opacity="0.9"/>` +
    seam(p, 'M400 360 L400 300', 6) + '<path d="M400 300 Q370 250 400 190 Q430 250 400 300 Z" fill="#f2a63b"/>',
  'gift-card': (p) => cloth(p, 'M140 330 Q140 300 170 300 L630 300 Q660 300 660 330 L660 670 Q660 700 630 700 L170 700 Q140 700 140 670 Z') + `<path d="M250 300 L290 300 L290 700 L250 700 Z M140 470 L660 470 L660 510 L140 510 Z" fill="${p.trim}"/>` + cloth({ ...p, main: p.trim, print: false }, 'M270 490 Q200 400 240 380 Q280 380 270 490 Q340 400 310 380 Q270 370 270 490 Z'),
  blanket: (p) => cloth(p, 'M150 300 L650 300 L650 760 L150 760 Z') + seam(p, 'M150 450 L650 450 M150 610 L650 610') + seam(p, Array.from({ length: 21 }, (_, i) => `M${160 + i * 24} 760 L${160 + i * 24} 810`).join(' '), 5),
};

function glasses(p: Paint, tint: number): string {
  const lens = tint ? p.dark : '#e9eef2';
  return [250, 550]
    .map((x) => `<circle cx="${x}" cy="500" r="125" fill="${lens}" opacity="${tint ? 0.85 : 0.6}"/><circle cx="${x}" cy="500" r="125" fill="none" stroke="${p.main}" stroke-width="30"/>`)
    .join('') + strap(p, 'M365 480 Q400 450 435 480', 16) + strap(p, 'M120 470 L70 430 M680 470 L730 430', 18);
}

export const drawGarment = (kind: GarmentKind, paint: Paint): string => drawings[kind](paint);
