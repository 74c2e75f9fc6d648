/* iobufviz's web page (src/export/page/page.js): replays the run the page holds. The run is the
 * JSON transcript (doc/json.md) in <script id="transcript">, the page's own data (the lesson as
 * C, the glossary) in <script id="page">. Every string of them is untrusted: it reaches the
 * page through textContent and DOM calls only, never as markup (the page's policy forbids
 * innerHTML outright: require-trusted-types-for 'script'). */
'use strict';
(function () {
	const T = JSON.parse(document.getElementById('transcript').textContent);
	/* [the page's own data, each step's [cells' origin marks, their legend, question]] */
	const PD = JSON.parse(document.getElementById('page').textContent);
	const P = PD[0], SD = PD[1] || [];
	const steps = T.steps || [];
	const N = steps.length;
	let cur = 0;
	/* The written steps (every step as HTML, for a reader without scripts and for print)
	 * give way to one step at a time. */
	document.documentElement.classList.add('js');

	/* A control, a bidi control or a line separator shown as \uXXXX, as base/text.c shows them
	 * on a terminal: nothing a scenario holds reorders or breaks the text around it. In a
	 * block, newlines and tabs stay. */
	function shown(s, block) {
		return String(s).replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
			function (c) {
				if (block && (c === '\n' || c === '\t'))
					return c;
				return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
			});
	}

	/* A new element of class cls holding text (shown; as a block when block). */
	function el(tag, cls, text, block) {
		const e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text !== undefined && text !== null)
			e.textContent = shown(text, block);
		return e;
	}

	/* Append the children to e; return e. */
	function add(e) {
		for (let i = 1; i < arguments.length; i++)
			if (arguments[i] !== null && arguments[i] !== undefined)
				e.append(arguments[i]);
		return e;
	}

	/* A size for people: 904 B, 4 KiB, 1.5 MiB. */
	function size(b) {
		const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
		let v = b, i = 0;
		while (v >= 1024 && i < u.length - 1) {
			v /= 1024;
			i++;
		}
		return (i === 0 ? String(v) : v.toFixed(v < 10 ? 1 : 0).replace(/\.0$/, '')) + ' ' + u[i];
	}

	/* A time in microseconds for people. */
	function usec(us) {
		if (us === null || us === undefined)
			return '';
		if (us < 1)
			return Math.round(us * 1000) + ' ns';
		if (us < 1000)
			return us.toFixed(us < 10 ? 1 : 0) + ' \u00b5s';
		if (us < 1e6)
			return (us / 1000).toFixed(2) + ' ms';
		return (us / 1e6).toFixed(2) + ' s';
	}

	/* Member path k of o ("cache.dirty_pages"), or undefined. */
	function at(o, k) {
		return k.split('.').reduce(function (v, p) {
			return v === null || v === undefined ? undefined : v[p];
		}, o);
	}

	/* A number of the state: key k of now (data-k names it), marked when prev differs. */
	function num(k, now, prev, unit) {
		const v = at(now, k), e = el('span', 'num', v === null || v === undefined ? '?' : v);
		const box = el('span', null);
		e.dataset.k = k;
		add(box, e);
		if (unit)
			add(box, ' ' + unit);
		if (typeof v === 'number' && unit === 'B' && v >= 1024)
			add(box, el('span', 'dim small', ' (' + size(v) + ')'));
		if (prev && at(prev, k) !== v && at(prev, k) !== undefined) {
			e.classList.add('chg');
			add(box, el('span', 'was', at(prev, k) === null ? '?' : at(prev, k)));
		}
		return box;
	}

	/* Words with a number: "pending 904 B". */
	function field(label, k, now, prev, unit) {
		return add(el('span', null), label + ' ', num(k, now, prev, unit));
	}

	/* The step i's state, or null. */
	function state(i) {
		return i >= 0 && i < N ? steps[i].state : null;
	}

	/* The state step i is compared with: the previous step's, when it shows the same file
	 * (a program's steps may each touch another); else null. */
	function before(i) {
		return i > 0 && steps[i].file === steps[i - 1].file ? state(i - 1) : null;
	}

	const modes = { full: 'fully buffered', line: 'line buffered', none: 'unbuffered' };

	/* The newest write or read stdio made on fd, up to step i. */
	function lastFlush(i, fd) {
		for (let k = i; k >= 0; k--) {
			const ev = steps[k].events || [];
			for (let j = ev.length - 1; j >= 0; j--)
				if (ev[j].origin === 'stdio' && ev[j].fd === fd &&
				    /^(write|read|pwrite64|pread64|writev|readv)$/.test(ev[j].call))
					return ev[j];
		}
		return null;
	}

	/* The stdio pane. */
	function drawStdio(i) {
		const s = state(i), p = before(i), b = document.querySelector('#stdio .body');
		const st = steps[i];
		b.replaceChildren();
		if (!s || !s.stdio.open) {
			add(b, el('p', 'dim', 'no FILE* open'));
		} else {
			const f = s.stdio;
			add(b, add(el('p'), 'FILE*' + (f.fd !== undefined ? ' on fd ' + f.fd : '') + ', ',
				el('span', 'data', modes[f.mode] || f.mode || '?')));
			if (f.size === 0) {
				add(b, el('p', 'dim', 'buffer not allocated yet (glibc allocates it at the first I/O)'));
			} else {
				add(b, add(el('p', 'counts'), field('size', 'stdio.size', s, p, 'B'), ' ',
					field('pending', 'stdio.pending', s, p, 'B')));
				if (f.read_avail > 0)
					add(b, add(el('p', 'counts'), field('read ahead', 'stdio.read_avail', s, p, 'B')));
				const bar = el('progress', 'buffer');
				bar.max = f.size;
				bar.value = f.pending > 0 ? f.pending : f.read_avail;
				bar.setAttribute('aria-label', 'bytes in the buffer');
				add(b, bar);
			}
			if (f.head)
				add(b, add(el('p', 'small'), 'data ', el('code', 'data', '"' + f.head + '"')));
		}
		const lf = s && s.stdio.open ? lastFlush(i, s.stdio.fd) : null;
		if (lf)
			add(b, add(el('p', 'small dim'), 'last flush: ', el('code', 'data', lf.text)));
		if (st.output !== null && st.output !== undefined) {
			add(b, el('p', 'small', st.output_file !== null && st.output_file !== undefined ?
				'on the terminal:' : 'printed:'));
			add(b, el('pre', 'data', st.output, true));
		}
		if (st.output_file !== null && st.output_file !== undefined) {
			add(b, el('p', 'small', 'in the file:'));
			add(b, el('pre', 'data', st.output_file, true));
		}
	}

	/* The class of a cache cell [cached, dirty, writeback]. */
	function cellKind(c) {
		if (c[2] > 0)
			return 'writeback';
		if (c[1] > 0)
			return 'dirty';
		if (c[0] > 0)
			return c[1] === null ? 'resident' : 'clean';
		return 'absent';
	}

	const kindName = {
		writeback: 'writeback', dirty: 'dirty', clean: 'clean', resident: 'cached, dirty unknown',
		absent: 'absent', on_disk: 'on disk', no_block: 'no block yet (delalloc)', stale: 'stale',
		unwritten: 'unwritten', hole: 'hole', inline: 'inline', allocated: 'allocated',
		unknown: 'not observable',
	};

	const fromClass = { a: ' o-asked', r: ' o-ahead', b: ' o-before' };
	const fromName = { a: 'asked for by this step', r: 'read ahead by the kernel',
		b: 'cached before this step' };

	/* A strip of cells of the given kinds; the ones whose kind differs from before's marked;
	 * from: each cell's origin mark (13.5: a asked for, r read ahead, b cached before), or
	 * "". */
	function cells(kinds, before, title, from) {
		const box = el('div', 'cells' + (kinds.length > 96 ? ' many' : ''));
		box.setAttribute('role', 'img');
		kinds.forEach(function (k, n) {
			const o = from ? from[n] || '.' : '.';
			const c = el('span', 'cell ' + k + (fromClass[o] || ''));
			if (fromClass[o])
				c.dataset.from = o;
			c.title = title(n, k) + (fromName[o] ? '; ' + fromName[o] : '');
			c.dataset.kind = k;
			if (before && before[n] !== undefined && before[n] !== k)
				c.classList.add('chg');
			add(box, c);
		});
		box.setAttribute('aria-label', kinds.map(function (k) { return kindName[k]; }).join(', '));
		return box;
	}

	/* The page cache pane. */
	function drawCache(i) {
		const s = state(i), p = before(i), b = document.querySelector('#cache .body');
		/* A lesson of more than one file names the one the cache and disk show. */
		document.querySelector('#cache h2').textContent =
			'page cache (kernel)' + (s.file ? ': ' + s.file : '');
		b.replaceChildren();
		const c = s.cache;
		if (c.source === 'none') {
			add(b, el('p', 'dim', 'page cache not observable here'));
		} else {
			const ppc = c.pages_per_cell || 1;
			add(b, add(el('p', 'counts'), field('file', 'cache.file_size', s, p, 'B')),
				el('p', 'dim small', '1 cell = ' + ppc + ' page' + (ppc > 1 ? 's' : '')));
			if (c.cells.length === 0)
				add(b, el('p', 'dim', 'empty file: no pages'));
			else
				add(b, cells(c.cells.map(cellKind), p && p.cache.cells ? p.cache.cells.map(cellKind) : null,
					function (n, k) {
						const v = c.cells[n];
						return 'cell ' + n + ': pages ' + n * ppc + '-' + ((n + 1) * ppc - 1) + ': ' +
							kindName[k] + '; cached ' + v[0] + ', dirty ' + (v[1] === null ? '?' : v[1]) +
							', writeback ' + (v[2] === null ? '?' : v[2]);
					}, SD[i] ? SD[i][0] : ''));
			/* Where the pages came from (13.5), as the TUI's legend words it, with counts. */
			if (SD[i] && SD[i][1].length > 0) {
				const ul = el('ul', 'legend origins');
				const kind = c.cells[0][1] === null ? 'resident' : 'clean';
				SD[i][1].forEach(function (m) {
					add(ul, add(el('li'), el('span', 'cell ' + kind + fromClass[m[0]]), el('span', null, m[1])));
				});
				add(b, ul);
			}
			add(b, add(el('p', 'counts'), field('cached', 'cache.pages', s, p),
				field('dirty', 'cache.dirty_pages', s, p), field('writeback', 'cache.writeback_pages', s, p)));
		}
		if (c.note)
			add(b, el('p', 'note data', c.note));
	}

	/* The disk pane. */
	function drawDisk(i) {
		const s = state(i), p = before(i), b = document.querySelector('#disk .body');
		const d = s.disk, env = T.environment || {};
		const name = d.fs || env.fs;
		document.getElementById('disk-title').textContent = shown('disk' + (name ? ' (' + name +
			(env.device ? ', ' + env.device : '') + ')' : ''));
		b.replaceChildren();
		if (d.source === 'none') {
			add(b, el('p', 'data', d.note || 'extents not observable here'));
			return;
		}
		const ul = el('ul', 'extents');
		if (d.extents.length === 0)
			add(ul, el('li', 'dim', 'no extents: nothing on disk'));
		d.extents.forEach(function (x) {
			add(ul, el('li', null, '[' + x.logical + ', ' + (x.logical + x.length) + ') ' +
				(x.delalloc ? 'delalloc' : x.unwritten ? 'unwritten' : x.inline ? 'inline' : 'allocated')));
		});
		add(b, ul);
		if (d.cells && d.cells.length > 0)
			add(b, cells(d.cells, p && p.disk.cells ? p.disk.cells : null, function (n, k) {
				return 'cell ' + n + ': ' + kindName[k];
			}));
		const line = add(el('p', 'counts'), field('allocated', 'disk.allocated_bytes', s, p, 'B'),
			field('delalloc', 'disk.delalloc_bytes', s, p, 'B'));
		if (d.unwritten_bytes)
			add(line, field('unwritten', 'disk.unwritten_bytes', s, p, 'B'));
		if (d.inline_bytes)
			add(line, field('inline', 'disk.inline_bytes', s, p, 'B'));
		add(b, line);
		/* The crash lab's device: what left the machine's memory in this step. */
		const dv = steps[i].device;
		if (dv) {
			const e = el('p', 'device data', (s.device ? s.device.name : 'device') + ': +' +
				dv.writes + ' write' + (dv.writes === 1 ? '' : 's') + ' (' + size(dv.write_bytes) +
				'), +' + dv.flushes + ' flush' + (dv.flushes === 1 ? '' : 'es') + ' this step');
			e.dataset.writes = dv.writes;
			e.dataset.flushes = dv.flushes;
			add(b, e);
		}
		if (d.note)
			add(b, el('p', 'note data', d.note));
	}

	/* Scroll box so that e is a third of the way down it (what led to it shows above). */
	function scrollTo(box, e) {
		const top = e.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
		box.scrollTop = Math.max(0, top - box.clientHeight / 3);
	}

	/* The system-call log: every step's calls up to i, step i's marked. */
	function drawLog(i) {
		const b = document.querySelector('#log .body'), tb = el('tbody');
		let now = null;
		b.replaceChildren();
		for (let k = 0; k <= i; k++) {
			const st = steps[k], ev = st.events || [], mine = k === i;
			const row = function (cells) {
				const tr = el('tr', mine ? 'now' : null);
				cells.forEach(function (c) { add(tr, c); });
				add(tb, tr);
				if (mine && !now)
					now = tr;
			};
			ev.forEach(function (e) {
				const t = e.usec_incl_tracing !== null && e.usec_incl_tracing !== undefined ?
					usec(e.usec_incl_tracing) + '*' : usec(e.call_usec);
				row([el('td', 'r', '#' + st.index), el('td', 'op data', st.op), el('td', 'text data', e.text),
					el('td', 'tag', '[' + ((P.origins || {})[e.origin] || e.origin) + ']'),
					el('td', 'r', t)]);
			});
			if (st.trace === 'procio' && (st.calls.write > 0 || st.calls.read > 0))
				row([el('td', 'r', '#' + st.index), el('td', 'op data', st.op),
					el('td', 'text', st.calls.write + ' write and ' + st.calls.read + ' read calls, ' +
						(st.calls.bytes_written + st.calls.bytes_read) + ' bytes (counts only)'),
					el('td', 'tag', ''), el('td', 'r', '')]);
			if (st.calls.dropped > 0)
				row([el('td', 'r', '#' + st.index), el('td', 'op', ''),
					el('td', 'text dim', '... and ' + st.calls.dropped + ' more calls (not kept)'),
					el('td'), el('td')]);
			if (mine && ev.length === 0 && st.trace !== 'procio')
				row([el('td', 'r', '#' + st.index), el('td', 'op data', st.op),
					el('td', 'text dim', 'no system call on the file'), el('td'), el('td')]);
		}
		add(b, add(el('table'), tb));
		if (now)
			scrollTo(b, now);
	}

	/* The expectations of step i. */
	function drawExpect(i) {
		const b = document.querySelector('#expect .body'), x = steps[i].expect || [];
		b.replaceChildren();
		if (x.length === 0) {
			add(b, el('p', 'dim', 'no expectations in this step'));
			return;
		}
		const ul = el('ul', 'expects');
		x.forEach(function (e) {
			let t = e.key + ' ' + e.want;
			if (e.outcome === 'failed')
				t += ' (got ' + (e.got === null ? e.got_why : e.got) + ')';
			else if (e.outcome === 'not_observable')
				t += ' (not observable here: ' + e.got_why + ')';
			const li = el('li', e.outcome, t);
			li.dataset.key = e.key;
			add(ul, li);
		});
		add(b, ul);
	}

	/* Narration as paragraphs: lines of a paragraph flow together; a line that starts with a
	 * space (code) is kept as it is; a blank line ends a paragraph. */
	function prose(box, text, cls) {
		let para = null;
		String(text).split('\n').forEach(function (line) {
			if (line === '') {
				para = null;
			} else if (line[0] === ' ' || line[0] === '\t') {
				para = null;
				add(box, el('pre', 'data', line));
			} else {
				if (!para)
					para = add(box, el('p', 'data' + (cls ? ' ' + cls : '')));
				para.textContent += (para.textContent ? ' ' : '') + shown(line);
			}
		});
	}

	/* The reason under a sentence that is not held, numbered n as its mark: what this run
	 * could not see (unchecked) or what it saw instead (false). */
	function marked(s, n) {
		return el('p', 'why small ' + s.outcome, '[?' + n + '] ' +
			(s.outcome === 'false' ? 'false here: ' : 'not observable here: ') + (s.why || ''));
	}

	/* What step i did: its call, what changed, its narration (with each sentence's mark when
	 * the transcript carries them), its note. */
	function drawWhat(i) {
		const st = steps[i], box = document.getElementById('narration');
		let call = 'step ' + st.index + ': ' + st.args;
		/* A program's call already says what it returned. */
		if (!T.program)
			call += ' \u2192 ' + st.result + (st.errno ? ' (' + st.errno + ')' : '');
		document.getElementById('call').textContent = shown(call);
		box.replaceChildren();
		if (st.file)
			add(box, add(el('p', 'small dim'), 'file ', el('code', 'data', st.file)));
		/* A program's step: the line of its source that made it (built with -g). */
		if (st.source)
			add(box, add(el('p', 'small dim source'), 'source ', el('code', 'data',
				(st.source.line ? 'line ' + st.source.line : 'at ' + st.source.addr) +
				(st.source.function ? ' in ' + st.source.function + '()' : '') +
				(st.source.caller_line ? ', called from line ' + st.source.caller_line : '') +
				(st.source.file ? ' (' + st.source.file + ')' : ''))));
		/* What the kernel did while a person paused before the step, and when (--pace). */
		if (st.pause && st.pause.said)
			add(box, el('p', 'pause between data', 'Before this step, ' + st.pause.said + '.'));
		(st.changes || []).filter(function (c) { return c.between_steps; }).forEach(function (c) {
			add(box, el('p', 'change between data', c.text));
		});
		if (Array.isArray(st.sentences) && st.sentences.length > 0) {
			const p = add(box, el('p')), why = [];
			st.sentences.forEach(function (s) {
				/* A check mark only on what a fact of the run held. */
				add(p, el('span', 'sentence data ' + s.outcome +
					(s.outcome === 'held' && s.rests === false ? ' bare' : ''), s.text));
				/* Background is not about this run: no reason to give. */
				if (s.outcome !== 'held' && s.outcome !== 'background') {
					why.push(s);
					add(p, ' ', el('span', 'mark', '[?' + why.length + ']'));
				}
				add(p, ' ');
			});
			why.forEach(function (s, n) { add(box, marked(s, n + 1)); });
		} else if (st.say) {
			prose(box, st.say);
		}
		(st.changes || []).filter(function (c) { return !c.between_steps; }).forEach(function (c) {
			add(box, el('p', 'change data', c.text));
		});
		if (st.note)
			add(box, el('p', 'note data', st.note));
		if (st.crash)
			add(box, crashView(st.crash));
		if (st.exit)
			add(box, el('p', null, st.exit.signal ? 'killed by signal ' + st.exit.signal :
				'exited ' + st.exit.code));
		if (st.sweep)
			add(box, sweepTable(st.sweep));
	}

	/* What each crash left at a step (step.crash): the file after kill -9, and after a power
	 * cut recovered by the kernel (with what had reached the device, and what the kernel
	 * said), or why a crash was not observable here. */
	function crashView(c) {
		const d = el('div', 'crash');
		[['process', 'process crash (kill -9)'], ['power', 'power cut']].forEach(function (w) {
			const h = c[w[0]];
			let t = c.file + ': ';
			if (!h.observed)
				t += 'not observable here: ' + h.why;
			else if (!h.exists)
				t += 'no file';
			else if (h.size === 0)
				t += 'an empty file (0 B)';
			else
				t += h.size + ' B \u201c' + h.head.slice(0, 24) + (h.head.length > 24 ? '\u2026' : '') + '\u201d';
			if (w[0] === 'power' && h.observed)
				t += ' [' + h.device_writes + ' write' + (h.device_writes === 1 ? '' : 's') + ' (' +
					size(h.device_write_bytes) + ') and ' + h.device_flushes + ' flush' +
					(h.device_flushes === 1 ? '' : 'es') + ' had reached the device' +
					(h.stray_writes ? ', ' + h.stray_writes + ' that no step waited for' : '') + ']';
			const p = add(el('p', 'data'), el('b', null, w[1]), ' ' + shown(t));
			p.dataset.half = w[0];
			p.dataset.exists = h.observed ? String(h.exists) : 'unknown';
			if (h.observed && h.exists)
				p.dataset.size = h.size;
			add(d, p);
			(h.recovery || []).forEach(function (r) {
				add(d, el('p', 'small dim data', 'kernel: ' + r));
			});
		});
		return d;
	}

	/* A sweep's rows as a table: what each buffer size took here, as measured (on
	 * bytes_measured bytes: a long row is scaled down, the text transcript says how). */
	function sweepTable(sw) {
		const t = el('table'), head = el('tr');
		['variant', 'buffer', 'bytes measured', 'elapsed (median)', 'user', 'system'].forEach(function (h) {
			add(head, el('th', h === 'variant' ? null : 'r', h));
		});
		add(t, add(el('thead'), head));
		const tb = add(t, el('tbody'));
		(sw.variants || []).forEach(function (v) {
			(v.rows || []).forEach(function (r) {
				const m = r.measured || {};
				const sec = function (s) { return s === null || s === undefined ? '-' : usec(s * 1e6); };
				add(tb, add(el('tr'), el('td', 'data', v.name), el('td', 'r', size(r.buf_size)),
					el('td', 'r', size(r.bytes_measured)), el('td', 'r', sec(m.median_s)),
					el('td', 'r', sec(m.user_s)), el('td', 'r', sec(m.system_s))));
			});
		});
		return add(el('div'), el('p', 'data', sw.title), add(el('div', 'hscroll'), t));
	}

	/* The program pane: the lesson as C with step i's lines marked, or a traced program's
	 * calls with step i's marked. A marked line is a link to its step. */
	function drawProgram(i) {
		const b = document.querySelector('#program .body'), pr = P.program;
		let lines, ranges;
		if (pr) {
			lines = pr.lines;
			ranges = pr.steps;
			document.getElementById('program-title').textContent = 'program: step ' + (i + 1) +
				' (iobufviz --export=c)';
		} else {
			lines = steps.map(function (s) { return s.args; });
			ranges = steps.map(function (s, k) { return [k, k + 1]; });
			document.getElementById('program-title').textContent = 'the program\u2019s calls, step ' + (i + 1);
		}
		if (!b.firstChild) {
			const ol = el('ol', 'code'), owner = [];
			ranges.forEach(function (r, k) {
				for (let n = r[0]; n < r[1]; n++)
					owner[n] = k;
			});
			let comment = false;
			lines.forEach(function (line, n) {
				const li = el('li'), src = el('span', 'src data');
				const trimmed = line.trim();
				if (comment || trimmed.startsWith('/*') || trimmed.startsWith('//')) {
					src.classList.add('cm');
					comment = !line.includes('*/') && (comment || trimmed.startsWith('/*'));
				}
				src.textContent = shown(line, true);
				add(li, el('span', 'ln', n + 1), el('span', 'mk'), src);
				if (owner[n] !== undefined) {
					li.classList.add('step');
					li.dataset.step = owner[n];
					li.title = 'step ' + (owner[n] + 1);
				}
				add(ol, li);
			});
			ol.addEventListener('click', function (ev) {
				const li = ev.target.closest('li.step');
				if (li)
					go(Number(li.dataset.step));
			});
			add(b, ol);
		}
		const r = ranges[i] || [0, 0];
		let first = null;
		b.querySelectorAll('li').forEach(function (li, n) {
			const on = n >= r[0] && n < r[1];
			li.classList.toggle('cur', on);
			if (on && !first)
				first = li;
		});
		if (first)
			scrollTo(b, first);
	}

	/* A step's short name: a lesson's op; a program's stdio function or system call. */
	function name(st) {
		if (st.stdio_call)
			return st.stdio_call.func;
		if (st.op === 'call' && st.events && st.events.length > 0)
			return st.events[0].call;
		return st.op;
	}

	/* The step buttons, once. */
	function drawChips() {
		const ol = document.getElementById('chips');
		steps.forEach(function (st, k) {
			const bt = el('button', null, String(st.index) + ' ' + name(st));
			bt.type = 'button';
			bt.title = shown(st.args);
			bt.dataset.step = k;
			if ((st.expect || []).some(function (e) { return e.outcome === 'failed'; }))
				bt.classList.add('failed');
			add(ol, add(el('li'), bt));
		});
		ol.addEventListener('click', function (ev) {
			const bt = ev.target.closest('button');
			if (bt)
				go(Number(bt.dataset.step));
		});
	}

	/* Predict, then see (the TUI's --quiz): stepping on into a step that has a question asks
	 * it first; the answer is checked against what the run saw, and the score is kept in this
	 * page only. */
	const quiz = { on: true, asking: -1, asked: 0, right: 0, said: {} };

	function drawScore() {
		document.getElementById('score').textContent = quiz.asked > 0 ?
			'score ' + quiz.right + '/' + quiz.asked : '';
		const bt = document.getElementById('quiz-on');
		bt.setAttribute('aria-pressed', String(quiz.on));
		bt.textContent = quiz.on ? 'predict: on' : 'predict: off';
	}

	/* Ask step i's question instead of showing it. */
	function ask(i) {
		const q = SD[i][2];
		quiz.asking = i;
		document.body.classList.add('asking');
		document.getElementById('ask').hidden = false;
		document.getElementById('where').textContent = 'step ' + (i + 1) + '/' + N + ': predict';
		document.getElementById('ask-call').textContent = shown('next: step ' + (i + 1) + ': ' +
			steps[i].args);
		document.getElementById('ask-q').textContent = shown(q.question);
		const inp = document.getElementById('ask-in');
		inp.value = '';
		inp.focus();
	}

	/* The answer to the question asked (null: skipped), then the step. */
	function answer(v) {
		const i = quiz.asking;
		if (i < 0)
			return;
		if (v !== null) {
			const q = SD[i][2], g = Number(v);
			quiz.asked++;
			if (g === q.answer)
				quiz.right++;
			quiz.said[i] = { guess: g, right: g === q.answer, answer: q.answer, key: q.key };
		} else
			quiz.said[i] = null;
		quiz.asking = -1;
		document.body.classList.remove('asking');
		document.getElementById('ask').hidden = true;
		drawScore();
		go(i);
	}

	/* What the prediction of step i came to, above its narration. */
	function drawVerdict(i) {
		const v = document.getElementById('verdict'), s = quiz.said[i];
		v.replaceChildren();
		v.className = '';
		if (!s)
			return;
		v.className = s.right ? 'right' : 'wrong';
		add(v, el('b', null, s.right ? '\u2713 right: ' : '\u2717 not quite: '),
			'you said ' + s.guess + (s.right ? '; the run saw ' : ', the run saw ') + s.answer +
			' (' + s.key + ').');
		/* Wrong: the run's own facts first, the calls the step made. */
		const ev = steps[i].events || [];
		if (!s.right && ev.length > 0)
			add(v, ' Its calls: ', el('code', 'data', ev.map(function (e) { return e.text; }).join('; ')),
				'. The narration below says why.');
	}

	/* Step on from cur to i: asks first when i is the next step and has an unanswered
	 * question. */
	function step(i) {
		if (quiz.asking >= 0)
			return;
		if (quiz.on && i === cur + 1 && i < N && SD[i] && SD[i][2] && !(i in quiz.said)) {
			ask(i);
			return;
		}
		go(i);
	}

	/* Projector zoom: the page's type and cells larger by steps (kept in the page only). */
	const zooms = ['1', '1.25', '1.5', '2'];
	let zoom = 0;

	function setZoom(z) {
		zoom = Math.max(0, Math.min(zooms.length - 1, z));
		document.documentElement.dataset.zoom = zooms[zoom];
		document.getElementById('zoom-out').disabled = zoom === 0;
		document.getElementById('zoom-in').disabled = zoom === zooms.length - 1;
	}

	/* Show step i (from 0). */
	function go(i) {
		if (N === 0)
			return;
		if (quiz.asking >= 0) {
			quiz.asking = -1;
			document.body.classList.remove('asking');
			document.getElementById('ask').hidden = true;
		}
		cur = Math.max(0, Math.min(N - 1, i));
		document.getElementById('where').textContent = 'step ' + (cur + 1) + '/' + N;
		document.getElementById('link').href = '#step=' + (cur + 1);
		document.getElementById('first').disabled = document.getElementById('prev').disabled = cur === 0;
		document.getElementById('last').disabled = document.getElementById('next').disabled = cur === N - 1;
		document.querySelectorAll('#chips button').forEach(function (bt) {
			if (Number(bt.dataset.step) === cur) {
				bt.setAttribute('aria-current', 'step');
				/* In sight in its row (a phone's row scrolls sideways). */
				bt.scrollIntoView({ block: 'nearest', inline: 'nearest' });
			} else
				bt.removeAttribute('aria-current');
		});
		drawVerdict(cur);
		drawWhat(cur);
		drawStdio(cur);
		drawCache(cur);
		drawDisk(cur);
		drawLog(cur);
		drawExpect(cur);
		drawProgram(cur);
		document.body.dataset.step = cur + 1;
		if (location.hash !== '#step=' + (cur + 1))
			history.replaceState(null, '', '#step=' + (cur + 1));
	}

	/* The step the address asks for (#step=4), from 0; -1 if none. */
	function fromHash() {
		const m = /^#step=(\d+)$/.exec(location.hash);
		return m ? Number(m[1]) - 1 : -1;
	}

	/* The head: the machine it ran on (the title, the source and the lesson's question and
	 * intro are written in the page). */
	function drawHead() {
		const env = T.environment || {};
		const dl = document.getElementById('env');
		[['kernel', env.kernel], ['filesystem', env.fs], ['device', env.device],
		 ['page-cache probe', env.cache_source], ['calls seen by', env.trace],
		 ['iobufviz', env.version]].forEach(function (kv) {
			if (kv[1])
				add(dl, add(el('div'), el('dt', null, kv[0]), el('dd', 'data', kv[1])));
		});
		if (T.program) {
			const p = T.program, ended = document.getElementById('ended');
			add(ended, el('p', null, 'exit ' + (p.signal || p.exit_code) + (p.timed_out ? ' (timeout)' : '')));
			if (p.stdout)
				add(ended, el('p', null, 'its standard output:'), el('pre', 'data', p.stdout, true));
			document.getElementById('intro-box').hidden = false;
		}
		document.getElementById('made').textContent = shown('Made by iobufviz ' + (env.version || '') +
			' from a real run: every number is what the kernel reported then.' +
			(T.ok === false ? ' Some expectations failed on that machine.' : ''));
	}

	/* The glossary (the legend is written in the page). */
	function drawWords() {
		const dl = document.getElementById('glossary');
		(P.glossary || []).forEach(function (g) {
			add(dl, el('dt', null, g.term), el('dd', null, g.meaning));
		});
	}

	drawHead();
	drawWords();
	drawChips();
	document.getElementById('first').addEventListener('click', function () { go(0); });
	document.getElementById('prev').addEventListener('click', function () { go(cur - 1); });
	document.getElementById('next').addEventListener('click', function () { step(cur + 1); });
	document.getElementById('quiz-on').addEventListener('click', function () {
		quiz.on = !quiz.on;
		drawScore();
	});
	document.getElementById('zoom-in').addEventListener('click', function () { setZoom(zoom + 1); });
	document.getElementById('zoom-out').addEventListener('click', function () { setZoom(zoom - 1); });
	document.getElementById('ask-go').addEventListener('click', function () {
		const v = document.getElementById('ask-in').value.trim();
		if (/^-?\d+$/.test(v))
			answer(v);
		else
			document.getElementById('ask-in').focus();
	});
	document.getElementById('ask-skip').addEventListener('click', function () { answer(null); });
	document.getElementById('ask-in').addEventListener('keydown', function (ev) {
		if (ev.key === 'Enter') {
			ev.preventDefault();
			document.getElementById('ask-go').click();
		} else if (ev.key === 'Escape') {
			ev.preventDefault();
			answer(null);
		}
	});
	document.getElementById('last').addEventListener('click', function () { go(N - 1); });
	document.getElementById('link').addEventListener('click', function (ev) {
		ev.preventDefault();
		history.replaceState(null, '', '#step=' + (cur + 1));
	});
	document.addEventListener('keydown', function (ev) {
		if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.target.localName === 'input')
			return;
		const z = { '+': zoom + 1, '=': zoom + 1, '-': zoom - 1, '0': 0 }[ev.key];
		if (z !== undefined) {
			ev.preventDefault();
			setZoom(z);
			return;
		}
		if (ev.key === 'q') {
			ev.preventDefault();
			quiz.on = !quiz.on;
			drawScore();
			return;
		}
		const to = { ArrowRight: cur + 1, n: cur + 1, ArrowLeft: cur - 1, p: cur - 1, Home: 0, End: N - 1 }[ev.key];
		if (to === undefined)
			return;
		ev.preventDefault();
		if (to === cur + 1)
			step(to);
		else
			go(to);
	});
	window.addEventListener('hashchange', function () {
		if (fromHash() >= 0)
			go(fromHash());
	});
	drawScore();
	setZoom(0);
	go(fromHash() >= 0 ? fromHash() : 0);
	if (N === 0)
		document.getElementById('where').textContent = 'no steps';
})();
