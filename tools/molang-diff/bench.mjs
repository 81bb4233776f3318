// Times molangjs on the expressions benches/molang.rs times, as Blockbench
// runs it: the parsed tree cached by text (cache_enabled), one parse call
// per sample at 24 samples a second of animation. Prints ns per sample.
// Usage: node tools/molang-diff/bench.mjs
import Molang from 'molangjs/dist/molang.esm.js';

const cases = {
	clamped_sines:
		'-9.3734+math.clamp(math.sin(q.anim_time*90*4+45)*0.6,-0.3,0.3)+math.clamp(math.sin(q.anim_time*90*4+45)*1.2,-1.2,1.2)',
	sine: 'math.sin(query.anim_time * 90) * 10',
	script: 'v.x = q.anim_time * 2; return math.cos(v.x * 180) * v.x + 1;',
};
const parser = new Molang();
for (const [name, src] of Object.entries(cases)) {
	let sum = 0;
	const run = (n) => {
		for (let i = 0; i < n; i++) {
			for (let k = 0; k < 24; k++) {
				sum += parser.parse(src, { 'query.anim_time': k / 24 });
			}
		}
	};
	run(20000); // warm up the JIT and the cache
	const n = 200000;
	const t0 = process.hrtime.bigint();
	run(n);
	const ns = Number(process.hrtime.bigint() - t0) / (n * 24);
	console.log(`${name}: ${ns.toFixed(1)} ns per sample (checksum ${sum.toFixed(3)})`);
}
