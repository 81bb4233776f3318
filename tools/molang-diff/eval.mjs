// Evaluates Molang expressions with molangjs, set up as Blockbench sets it
// up (js/animations/molang.js: global_variables, variableHandler over the
// project's animation_variable_placeholders; keyframe.js Keyframe.calc:
// parse(value, {this, 'query.anim_time'})), for scenedec's differential
// test (tests/molang_diff.rs).
//
// stdin: {"times": [t...], "delta_time": d, "this": v,
//         "groups": [{"placeholders": "text", "expressions": ["...", ...]}]}
// stdout: {"version": "x.y.z", "values": [[[v at each time] per expression] per group]};
// a value that is not finite is written as the string "Infinity",
// "-Infinity" or "NaN". Variables are reset before each (expression, time),
// as entering the Animate tab resets them; a group with "chain": true has
// them reset once per time instead, its expressions then evaluated in
// order sharing them (one frame of Blockbench's stackAnimations).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
// The package's "main" is a CommonJS file inside a "type": "module"
// package, which Node cannot load; its ES module build loads.
import Molang from 'molangjs/dist/molang.esm.js';

const require = createRequire(import.meta.url);
const version = require('molangjs/package.json').version;
const input = JSON.parse(readFileSync(0, 'utf8'));
const parser = new Molang();

let now = 0;
let lines = {};
// Blockbench processVariablePlaceholderText: key = value lines.
function placeholderLines(text) {
	const found = {};
	for (const line of (text || '').split('\n')) {
		const [key, val] = line.split(/=\s*(.+)/);
		if (val === undefined) continue;
		const k = key.replace(/[\s;]/g, '')
			.replace(/^v\./, 'variable.').replace(/^q\./, 'query.')
			.replace(/^t\./, 'temp.').replace(/^c\./, 'context.');
		found[k] = val.trim();
	}
	return found;
}
const fallbacks = { 'query.model_scale': 1 / 16 };
parser.global_variables = {
	true: 1,
	false: 0,
	get 'query.delta_time'() { return input.delta_time; },
	get 'query.anim_time'() { return now; },
	get 'query.life_time'() { return now; },
	get 'query.time_stamp'() { return Math.floor(now * 20) / 20; },
	get 'query.state_time'() { return now; },
	get 'query.all_animations_finished'() { return 0; },
	get 'query.any_animation_finished'() { return 0; },
	get 'query.distance_from_camera'() { return 0; },
	get 'query.is_first_person'() { return 0; },
	get 'context.is_first_person'() { return 0; },
	get time() { return now; },
};
// Blockbench variableHandler: the bare name, then (Blockbench 5) the call
// with its arguments; no buttons, so sliders, toggles and impulses are 0.
const stringNumber = (s) => typeof s === 'number' || /^-?\d+(\.\d+f?)?$/.test(s);
parser.variableHandler = (name, variables, args) => {
	const withArgs = args?.length && `${name}(${args.map((a) => (stringNumber(a) ? a : "'" + a + "'")).join(',')})`;
	const val = lines[name] ?? lines[withArgs];
	if (val === undefined) return fallbacks[name];
	if (/^(slider|toggle|impulse)\(/.test(val)) return 0;
	return val[0] === "'" ? val : parser.parse(val, variables);
};

const out = (v) => (Number.isFinite(v) ? v : String(v));
const chained = (group) => {
	const byTime = input.times.map((t) => {
		now = t;
		parser.resetVariables();
		return group.expressions.map((expression) =>
			out(parser.parse(expression, { this: input.this, 'query.anim_time': t })),
		);
	});
	return group.expressions.map((_, e) => byTime.map((row) => row[e]));
};
const values = input.groups.map((group) => {
	lines = placeholderLines(group.placeholders);
	if (group.chain) return chained(group);
	return group.expressions.map((expression) =>
		input.times.map((t) => {
			now = t;
			parser.resetVariables();
			return out(parser.parse(expression, { this: input.this, 'query.anim_time': t }));
		}),
	);
});
process.stdout.write(JSON.stringify({ version, values }));
