// ParamHub dashboard: follows one job's Server-Sent Events (/jobs/{job}/events) and draws each snapshot.
// Plain JavaScript, no build step; the charts are hand-written SVG.
(function () {
  'use strict';

  const SVG = 'http://www.w3.org/2000/svg';
  const IDLE_MS = 10000;
  const pinned = new URLSearchParams(window.location.search).get('job');
  let job = null;
  let source = null;

  const $ = (id) => document.getElementById(id);

  function text(value, digits) {
    if (value === null || value === undefined || Number.isNaN(value)) {
      return '–';
    }
    return typeof value === 'number' && digits !== undefined ? value.toFixed(digits) : String(value);
  }

  function grouped(value) {
    return value === null || value === undefined ? '–' : Math.round(value).toLocaleString('en-US');
  }

  function percent(value) {
    return value === null || value === undefined ? '–' : (100 * value).toFixed(1) + '%';
  }

  function clockTime(ms) {
    return new Date(ms).toLocaleTimeString('en-GB');
  }

  function el(tag, attributes, children) {
    const node = document.createElement(tag);
    Object.entries(attributes || {}).forEach(([key, value]) => {
      if (key === 'text') {
        node.textContent = value;
      } else {
        node.setAttribute(key, value);
      }
    });
    (children || []).forEach((child) => node.appendChild(child));
    return node;
  }

  function meter(fraction, kind) {
    const bar = el('span');
    bar.style.width = Math.max(0, Math.min(1, fraction || 0)) * 100 + '%';
    return el('div', {class: 'meter' + (kind ? ' ' + kind : '')}, [bar]);
  }

  // --- job selection -------------------------------------------------------------------------------------

  async function refreshJobs() {
    let jobs = [];
    try {
      const response = await fetch('/jobs', {cache: 'no-store'});
      jobs = response.ok ? await response.json() : [];
    } catch (e) {
      return;
    }
    const select = $('job-select');
    const chosen = job || pinned;
    select.replaceChildren();
    if (jobs.length === 0) {
      select.appendChild(el('option', {value: '', text: 'waiting for a job…'}));
    }
    jobs.forEach((each) => {
      const label = each.job + (each.model ? ' (' + each.model + ', ' + each.workers + ' workers)' : '');
      select.appendChild(el('option', {value: each.job, text: label}));
    });
    const next = pinned || (jobs.length > 0 ? jobs[0].job : null);
    if (job === null && next !== null) {
      follow(next);
    } else if (chosen) {
      select.value = chosen;
    }
  }

  function follow(name) {
    job = name;
    $('job-select').value = name;
    $('feed-url').textContent = '/jobs/' + encodeURIComponent(name) + '/events';
    if (source) {
      source.close();
    }
    $('job-line').textContent = 'Waiting for the first snapshot of job ' + name + '…';
    setConnection('connecting', 'connecting…');
    source = new EventSource('/jobs/' + encodeURIComponent(name) + '/events');
    source.onopen = () => setConnection('live', 'live');
    source.onerror = () => setConnection('down', 'reconnecting…');
    source.addEventListener('snapshot', (event) => {
      const snapshot = JSON.parse(event.data);
      if (snapshot.job === job) {
        render(snapshot);
        setConnection('live', 'live · updated ' + clockTime(snapshot.at));
      }
    });
  }

  function setConnection(state, label) {
    const node = $('connection');
    node.dataset.state = state;
    node.textContent = label;
  }

  // --- rendering -----------------------------------------------------------------------------------------

  function render(s) {
    renderSummary(s);
    renderWorkers(s);
    renderCharts(s);
    renderCommands(s);
  }

  function renderSummary(s) {
    const spec = s.spec;
    const line = $('job-line');
    line.replaceChildren();
    line.appendChild(el('b', {text: s.job}));
    line.appendChild(document.createTextNode(spec
      ? ': ' + spec.model + ' on ' + spec.dataset + ', ' + spec.syncMode
        + (spec.syncMode === 'SSP' ? '(' + spec.staleness + ')' : '') + ', ' + spec.workers + ' workers, batch '
        + spec.globalBatch + ', ' + spec.epochs + ' epochs, ' + spec.shards + ' shards, '
        + spec.optimizer.toLowerCase() + ' lr ' + spec.learningRate
      : ' (its job spec has not been read)'));

    $('model-version').textContent = s.model.version >= 0 ? s.model.version : '–';
    $('model-clock').textContent = s.model.minClock >= 0 ? 'clock ' + s.model.minClock : '–';

    const loss = s.loss.points;
    $('last-loss').textContent = loss.length > 0 ? loss[loss.length - 1][1].toFixed(4) : '–';
    $('loss-note').textContent = 'mean per sample' + (s.loss.width > 1 ? ' · ' + s.loss.width + ' clocks a point'
      : ', from telemetry');

    const test = s.test;
    const name = test.metric === 'rmse' ? 'test RMSE' : 'test accuracy';
    $('test-label').textContent = name;
    $('test-chart-title').textContent = name.charAt(0).toUpperCase() + name.slice(1);
    if (test.unavailable) {
      $('test-metric').textContent = '–';
      $('test-note').textContent = test.unavailable;
    } else if (test.points.length > 0) {
      const last = test.points[test.points.length - 1];
      $('test-metric').textContent = last[2].toFixed(4);
      $('test-note').textContent = 'model version ' + last[1] + ' on ' + grouped(test.samples) + ' test samples';
    } else {
      $('test-metric').textContent = '–';
      $('test-note').textContent = 'waiting for a whole model';
    }

    const o = s.orchestrator;
    $('orchestrator-mode').textContent = o.planning ? 'planning' : 'observe-only';
    const stragglers = s.workers.filter((w) => w.straggler).map((w) => w.worker);
    const issued = s.commands.newestEpoch;
    const inForce = s.model.planEpoch;
    $('orchestrator-note').textContent = (o.planning
      ? (issued < 0 ? 'no plan yet'
        : inForce === issued ? 'plan ' + issued + ' in force'
        : 'plan ' + issued + ' issued' + (inForce >= 0 ? ', plan ' + inForce + ' in force' : ''))
      : 'flags only, no commands')
      + ' · ' + (stragglers.length > 0 ? stragglers.length + ' straggler' + (stragglers.length > 1 ? 's' : '')
        : 'no straggler');
  }

  function renderWorkers(s) {
    const body = $('workers').tBodies[0];
    body.replaceChildren();
    if (s.workers.length === 0) {
      body.appendChild(el('tr', {class: 'empty'}, [el('td', {colspan: '8', text: 'waiting for telemetry…'})]));
      return;
    }
    s.workers.forEach((w) => {
      const idle = w.lastSeenAt !== undefined && s.at - w.lastSeenAt > IDLE_MS;
      const straggler = w.straggler === true;
      const status = straggler ? el('span', {class: 'badge straggler', text: 'straggler'})
        : idle ? el('span', {class: 'badge idle', text: 'idle'})
        : w.straggler === false ? el('span', {class: 'badge ok', text: 'ok'})
        : el('span', {class: 'planned', text: 'not judged yet'});
      // a plan the worker has not applied yet shows as "→ planned"
      const pending = s.commands.newestEpoch >= 0 && w.commandEpoch !== undefined
        && w.commandEpoch < s.commands.newestEpoch;
      const share = el('div', {class: 'share'}, [meter(w.share), el('span', {text: percent(w.share)})]);
      if (pending && w.plannedShare !== undefined && w.plannedShare !== null) {
        share.appendChild(el('span', {class: 'planned', text: '→ ' + percent(w.plannedShare)}));
      }
      const threads = text(w.threads) + (pending && w.plannedThreads && w.plannedThreads !== w.threads
        ? ' → ' + w.plannedThreads : '');
      const row = el('tr', {'data-worker': w.worker, 'data-straggler': String(straggler),
        class: straggler ? 'straggler' : ''}, [
        el('td', {text: w.worker}),
        el('td', {class: 'num', text: text(w.clock)}),
        el('td', {class: 'num', text: grouped(w.speed)}),
        el('td', {}, [share]),
        el('td', {class: 'num', text: threads}),
        el('td', {class: 'num', text: text(w.meanWaitMs, 1)}),
        el('td', {}, [el('div', {class: 'share'}, [meter(w.waitFraction, 'wait'),
          el('span', {text: percent(w.waitFraction)})])]),
        el('td', {}, [status]),
      ]);
      body.appendChild(row);
    });
  }

  function renderCharts(s) {
    const loss = s.loss.points.map((p) => [p[0] + (s.loss.width - 1) / 2, p[1]]);
    const losses = loss.map((p) => p[1]);
    // a loss that falls by orders of magnitude (regression) reads better on a log scale
    const log = losses.length > 1 && Math.min(...losses) > 0 && Math.max(...losses) / Math.min(...losses) > 50;
    $('loss-scale').textContent = log ? ', log scale' : '';
    lineChart($('loss-chart'), loss, {kind: 'loss', yFloor: log ? undefined : 0, log: log,
      empty: 'waiting for telemetry…'});
    const test = s.test.points.map((p) => [p[0], p[2]]);
    const accuracy = s.test.metric !== 'rmse';
    lineChart($('test-chart'), test, {kind: 'test', yFloor: 0, yCeil: accuracy ? 1 : undefined, dots: true,
      empty: s.test.unavailable || 'waiting for a whole model…'});
  }

  function renderCommands(s) {
    const list = $('commands');
    list.replaceChildren();
    const plans = s.commands.plans;
    $('commands-note').textContent = s.orchestrator.planning
      ? (plans.length > 0 ? '(newest first, from the commands topic)' : '')
      : '(observe-only: none are issued)';
    if (plans.length === 0) {
      list.appendChild(el('li', {class: 'empty', text: s.orchestrator.planning ? 'no command issued yet'
        : 'the orchestrator runs observe-only and issues no command'}));
      return;
    }
    plans.forEach((plan) => {
      const allocation = plan.workers.map((w) => w.worker + ' ' + percent(w.share) + ', ' + w.threads
        + (w.threads === 1 ? ' thread' : ' threads')).join(' · ');
      list.appendChild(el('li', {'data-epoch': String(plan.epoch)}, [
        el('div', {class: 'head', text: 'plan epoch ' + plan.epoch}, [el('time', {text: clockTime(plan.issuedAt)})]),
        el('div', {class: 'reason', text: plan.reason}),
        el('div', {class: 'alloc', text: allocation}),
      ]));
    });
  }

  // --- a line chart in SVG -------------------------------------------------------------------------------

  function niceStep(range, ticks) {
    const raw = range / ticks;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    const unit = raw / power;
    return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
  }

  function svg(tag, attributes, content) {
    const node = document.createElementNS(SVG, tag);
    Object.entries(attributes).forEach(([key, value]) => node.setAttribute(key, value));
    if (content !== undefined) {
      node.textContent = content;
    }
    return node;
  }

  function lineChart(node, points, options) {
    const width = 560;
    const height = 250;
    const m = {left: 52, right: 62, top: 12, bottom: 34};
    node.replaceChildren();
    node.appendChild(svg('line', {class: 'axis', x1: m.left, y1: height - m.bottom, x2: width - m.right,
      y2: height - m.bottom}));
    node.appendChild(svg('line', {class: 'axis', x1: m.left, y1: m.top, x2: m.left, y2: height - m.bottom}));
    node.appendChild(svg('text', {x: (m.left + width - m.right) / 2, y: height - 4, 'text-anchor': 'middle'},
      'clock'));
    if (points.length === 0) {
      node.appendChild(svg('text', {class: 'empty-note', x: (m.left + width - m.right) / 2,
        y: (m.top + height - m.bottom) / 2, 'text-anchor': 'middle'}, options.empty));
      return;
    }
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => options.log ? Math.log10(p[1]) : p[1]);
    let xMin = Math.min(0, ...xs); // clocks start at 0
    let xMax = Math.max(...xs);
    if (xMax === xMin) {
      xMin -= 1;
      xMax += 1;
    }
    let yMin = options.yFloor !== undefined ? Math.min(options.yFloor, Math.min(...ys)) : Math.min(...ys);
    let yMax = options.yCeil !== undefined ? Math.max(options.yCeil, Math.max(...ys)) : Math.max(...ys);
    if (yMax === yMin) {
      yMax = yMin + 1;
    }
    const yStep = options.log ? 1 : niceStep(yMax - yMin, 4);
    if (options.log) {
      yMin = Math.floor(yMin);
    }
    yMax = Math.ceil(yMax / yStep) * yStep;
    const xStep = Math.max(1, niceStep(xMax - xMin, 6)); // clocks are whole numbers
    const sx = (x) => m.left + (x - xMin) / (xMax - xMin) * (width - m.left - m.right);
    const sy = (y) => height - m.bottom - (y - yMin) / (yMax - yMin) * (height - m.top - m.bottom);

    for (let y = Math.ceil(yMin / yStep) * yStep; y <= yMax + yStep / 1e6; y += yStep) {
      node.appendChild(svg('line', {class: 'grid', x1: m.left + 1, x2: width - m.right, y1: sy(y), y2: sy(y)}));
      node.appendChild(svg('text', {x: m.left - 6, y: sy(y) + 4, 'text-anchor': 'end'},
        options.log ? Number(Math.pow(10, y).toPrecision(1)).toString() : Number(y.toFixed(6)).toString()));
    }
    for (let x = Math.ceil(xMin / xStep) * xStep; x <= xMax; x += xStep) {
      node.appendChild(svg('line', {class: 'axis', x1: sx(x), x2: sx(x), y1: height - m.bottom,
        y2: height - m.bottom + 4}));
      node.appendChild(svg('text', {x: sx(x), y: height - m.bottom + 16, 'text-anchor': 'middle'},
        Math.round(x).toString()));
    }
    const path = points.map((p, i) => (i === 0 ? 'M' : 'L') + sx(p[0]).toFixed(1) + ' ' + sy(ys[i]).toFixed(1));
    node.appendChild(svg('path', {class: 'line ' + options.kind, d: path.join(' ')}));
    if (options.dots && points.length <= 40) {
      points.forEach((p, i) => node.appendChild(svg('circle', {class: 'dot', cx: sx(p[0]), cy: sy(ys[i]), r: 2.5})));
    }
    const last = points.length - 1;
    node.appendChild(svg('text', {class: 'last', x: sx(points[last][0]) + 6, y: sy(ys[last]) + 4},
      points[last][1].toFixed(4)));
  }

  $('job-select').addEventListener('change', (event) => {
    if (event.target.value) {
      const url = new URL(window.location.href);
      url.searchParams.set('job', event.target.value);
      window.history.replaceState(null, '', url);
      follow(event.target.value);
    }
  });
  refreshJobs();
  window.setInterval(refreshJobs, 3000);
}());
