// The job page: plain script, no framework, nothing loaded from elsewhere. Every text from the job goes
// into the DOM as textContent, never as markup. The log is virtualised: only the rows in view exist.

const ROW_PX = 18;
const OVERSCAN = 20;
const RECAP =
  /^(\S+)\s+:\s+ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)(?:\s+skipped=(\d+))?(?:\s+rescued=(\d+))?(?:\s+ignored=(\d+))?/;
const HOST = /^(?:ok|changed|fatal|failed|skipping|included|unreachable): \[([^\]\s]+)/;
const FAILURE = /^(?:fatal|failed): \[|^\S+\s+:\s+ok=\d+.*\sfailed=[1-9]/;
const TASK = /^(?:TASK|RUNNING HANDLER) \[/;
const SVG = 'http://www.w3.org/2000/svg';

const base = location.pathname.replace(/\/+$/, '');
const query = location.search;
const $ = (id) => document.getElementById(id);

const log = {
  lines: [],
  /** When Redis stored each line (ms), from its event's stream id: the same index as `lines`. */
  times: [],
  /** The index of the first line of each step's output, from the stream's step marks. */
  stepStarts: new Map(),
  /** The line a step's link jumped to, shown marked until the next jump. */
  target: -1,
  hosts: new Set(),
  recap: new Map(),
  recapVersion: 0,
  recapShown: -1,
  shown: null,
  lastTask: -1,
  ended: false,
};
let data = null;
let scheduled = false;

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function clock(at) {
  return `${new Date(at).toISOString().slice(11, 19)} UTC`;
}

/** The day of a time, as a postmortem writes it: `2026-12-02`. */
function day(at) {
  return new Date(at).toISOString().slice(0, 10);
}

/** A time of the job's day as a clock; of another day (a job past midnight), with its date. */
function clockOn(at, startedAt) {
  return day(at) === day(startedAt) ? clock(at) : `${day(at)} ${clock(at)}`;
}

/** A person as the page names them: their Slack name beside their id, or the id alone when none is known. */
function who(id) {
  const name = data?.names?.[id];
  return name ? `${name} (${id})` : id;
}

function duration(ms) {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  const seconds = `${String(s % 60).padStart(2, '0')}s`;
  return m < 60 ? `${m}m${seconds}` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m${seconds}`;
}

// --- header, steps, timeline, Cilium ------------------------------------------------------------

function statusOf(page) {
  if (page.record.outcome) return page.record.outcome;
  if (page.steps.some((step) => step.status === 'waiting')) return 'waiting for approval';
  return page.steps.length === 0 ? 'queued' : 'running';
}

function renderHeader(page) {
  document.title = `job #${page.record.number} · ${page.title}`;
  $('title').textContent = `${page.title} · job #${page.record.number}`;
  const commit = page.approvals.map((a) => a.request?.binding.commit).find(Boolean);
  const facts = [
    ['Command', page.title],
    ...(page.record.rerunOf ? [['Re-run of', `job #${page.record.rerunOf.number}`]] : []),
    ['Cluster', page.record.command.cluster],
    ['Asked by', who(page.record.requestedBy)],
    ['Status', statusOf(page)],
    ...timesOf(page),
    ['Infra repo commit', commit || 'not recorded (no approval bound one)'],
  ];
  const list = $('facts');
  list.replaceChildren();
  for (const [name, value] of facts) {
    list.append(el('dt', name));
    list.append(el('dd', value, name === 'Status' ? `status-${value}` : undefined));
  }
  // Only a web address is a link: the page never writes a `javascript:` or other scheme into an href.
  if (/^https:\/\//.test(page.threadUrl || '')) {
    const link = el('a', 'open the thread in Slack');
    link.href = page.threadUrl;
    link.id = 'thread-link';
    link.rel = 'noopener noreferrer';
    const cell = el('dd');
    cell.append(link);
    list.append(el('dt', 'Slack thread'), cell);
  }
  list.dataset.status = statusOf(page);
}

/** When the job ran: its day, from the request to its end, and for how long (so far, while it runs). */
function timesOf(page) {
  const { createdAt, finishedAt } = page.record;
  const end = finishedAt ?? Date.now();
  return [
    ['Date', day(createdAt)],
    ['Started', clock(createdAt)],
    ['Ended', finishedAt ? clockOn(finishedAt, createdAt) : 'not yet (running)'],
    ['Duration', finishedAt ? duration(end - createdAt) : `${duration(end - createdAt)} so far`],
  ];
}

function renderSteps(page) {
  const list = $('steps');
  list.replaceChildren();
  for (const step of page.steps) {
    const item = el('li');
    // A step a re-run carried over says where it was done ("skipped: done in #12").
    const status = step.status === 'skipped' && step.detail ? `skipped: ${step.detail}` : step.status;
    item.append(el('span', `${step.title} → ${step.target} (${status})`, `status-${step.status}`));
    if (step.commandLine) item.append(el('code', step.commandLine, 'argv'));
    if (log.stepStarts.has(step.id)) item.append(stepLogLink(step.id, log.stepStarts.get(step.id)));
    // What the thread said of this step beside its output: a re-attach after a worker restart, say.
    for (const { event } of page.events) {
      if (event.type === 'note' && event.stepId === step.id) item.append(el('p', event.text, 'note'));
    }
    list.append(item);
  }
}

/** A link to where the step's output begins in the log below; the log stops following to stay there. */
function stepLogLink(stepId, index) {
  // A button, not a link: the page's only links lead out of it (the thread, https:// only).
  const link = el('button', `log from line ${(index + 1).toLocaleString('en')}`, 'step-log');
  link.type = 'button';
  link.dataset.step = stepId;
  link.addEventListener('click', (click) => {
    click.preventDefault();
    $('filter').value = 'all';
    $('host').value = '';
    refilter();
    $('follow').checked = false;
    log.target = index;
    $('log').scrollTop = index * ROW_PX;
    $('log').scrollIntoView();
    schedule();
  });
  return link;
}

/** Each step's span, its approval waits and who decided them, from the events and the approvals. */
function spansOf(page) {
  const now = Date.now();
  const spans = new Map(page.steps.map((step) => [step.id, { step, start: 0, end: 0, waits: [] }]));
  for (const { at, event } of page.events) {
    const span = spans.get(event.stepId);
    if (!span) continue;
    if (event.type === 'step-started' && !span.start) span.start = at;
    if (event.type === 'step-waiting') {
      if (!span.start) span.start = at;
      const approval = page.approvals.find((a) => a.state.id === event.approvalId) || {};
      const state = approval.state || {};
      const by = Array.isArray(state.by) ? state.by.map(who).join(', ') : state.by && who(state.by);
      span.waits.push({ start: at, end: approval.decidedAt || 0, status: state.status || 'pending', by });
    }
    if (event.type === 'step-finished') span.end = at;
  }
  for (const span of spans.values()) {
    const open = !page.record.outcome;
    if (span.start && !span.end) span.end = open ? now : page.record.finishedAt || now;
    for (const wait of span.waits) if (!wait.end) wait.end = open ? now : span.end;
  }
  return [...spans.values()];
}

function renderTimeline(page) {
  const svg = $('timeline');
  const spans = spansOf(page);
  const started = spans.filter((span) => span.start);
  const t0 = Math.min(...started.map((span) => span.start), page.record.createdAt);
  const t1 = Math.max(...started.map((span) => span.end), t0 + 1000);
  const width = 1000;
  const labelWidth = 260;
  const scale = (width - labelWidth - 90) / (t1 - t0);
  const x = (t) => labelWidth + (t - t0) * scale;
  const gaps = gapsOf(spans, page.record.createdAt, 0.02 * (t1 - t0));
  svg.setAttribute('viewBox', `0 0 ${width} ${spans.length * 26 + 8}`);
  svg.replaceChildren();
  spans.forEach((span, index) => {
    const y = 4 + index * 26;
    const group = document.createElementNS(SVG, 'g');
    group.setAttribute('class', `step ${span.step.status}`);
    group.dataset.step = span.step.id;
    const label = document.createElementNS(SVG, 'text');
    label.setAttribute('x', '0');
    label.setAttribute('y', String(y + 14));
    label.textContent = `${index + 1}. ${span.step.title}`.slice(0, 40);
    group.append(label);
    if (span.start) {
      const bar = document.createElementNS(SVG, 'rect');
      bar.setAttribute('class', `bar ${span.step.status}`);
      bar.setAttribute('x', String(x(span.start)));
      bar.setAttribute('y', String(y));
      bar.setAttribute('width', String(Math.max(2, (span.end - span.start) * scale)));
      bar.setAttribute('height', '18');
      const tip = document.createElementNS(SVG, 'title');
      tip.textContent = `${span.step.title}: ${span.step.status}, ${duration(span.end - span.start)}`;
      bar.append(tip);
      group.append(bar);
      for (const wait of span.waits) {
        const shade = document.createElementNS(SVG, 'rect');
        shade.setAttribute('class', `wait ${wait.status}`);
        shade.setAttribute('x', String(x(wait.start)));
        shade.setAttribute('y', String(y - 2));
        shade.setAttribute('width', String(Math.max(2, (wait.end - wait.start) * scale)));
        shade.setAttribute('height', '22');
        const who = wait.by ? ` by ${wait.by}` : '';
        const note = document.createElementNS(SVG, 'title');
        note.textContent = `approval ${wait.status}${who} at ${clock(wait.end)} (waited ${duration(wait.end - wait.start)})`;
        shade.append(note);
        group.append(shade);
      }
    }
    if (gaps[index]) group.append(gapMark(gaps[index], x, y));
    const after = document.createElementNS(SVG, 'text');
    after.setAttribute('x', String(span.start ? x(span.end) + 6 : labelWidth));
    after.setAttribute('y', String(y + 14));
    const mark = span.step.status === 'failed' ? '✗ failed ' : '';
    after.textContent = span.start ? `${mark}${duration(span.end - span.start)}` : span.step.status;
    group.append(after);
    svg.append(group);
  });
}

const DECIDED = { approved: 'approved', rejected: 'rejected', expired: 'expired', void: 'withdrawn' };

/** Each approval the job asked for, as its approvers saw it: what would run, the preview, who decided when. */
function renderApprovals(page) {
  const asked = page.approvals
    .filter((approval) => approval.request)
    .sort((a, b) => (a.requestedAt ?? 0) - (b.requestedAt ?? 0));
  $('approvals-section').hidden = asked.length === 0;
  const list = $('approvals');
  list.replaceChildren(...asked.map((approval) => approvalItem(approval, page.record.createdAt)));
}

function approvalItem(approval, startedAt) {
  const { request, state } = approval;
  const status = DECIDED[state.status] || 'waiting';
  const item = el('li', undefined, `approval status-${state.status}`);
  item.dataset.step = request.stepId;
  item.append(el('h3', `${request.stepTitle} on ${request.cluster}: ${status}`));
  const when = el('ul', undefined, 'approval-when');
  const at = (t) => (t ? clockOn(t, startedAt) : 'a time not recorded');
  if (approval.requestedAt) when.append(el('li', `asked at ${at(approval.requestedAt)}`));
  for (const id of approval.approvals ?? []) {
    when.append(el('li', `approved by ${who(id)} at ${at(approval.approvedAt?.[id])}`));
  }
  if (state.status === 'rejected')
    when.append(el('li', `rejected by ${who(state.by)} at ${at(approval.decidedAt)}`));
  if (state.status === 'expired' || state.status === 'void') {
    const ended = approval.decidedAt ? ` at ${at(approval.decidedAt)}` : '';
    when.append(el('li', `${status}${ended}, not decided`));
  }
  if (approval.requestedAt && approval.decidedAt) {
    when.append(el('li', `waited ${duration(approval.decidedAt - approval.requestedAt)}`));
  }
  item.append(when);
  item.append(el('h4', 'What the approvers were shown'));
  const shown = el('dl', undefined, 'approval-request');
  const binding = request.binding;
  const facts = [
    ['Why', request.reason],
    ['Warning', request.warning],
    ['Runs', binding.commandLine],
    ['Targets', binding.targets],
    ['Preflight', binding.preflight],
    ['Infra repo commit', binding.commit],
    ['Repo moved from', request.previousCommit],
    ['Fingerprint', binding.fingerprint],
  ];
  for (const [name, value] of facts) {
    if (!value) continue;
    shown.append(el('dt', name));
    shown.append(el('dd', value, name === 'Runs' ? 'argv' : undefined));
  }
  item.append(shown);
  item.append(previewOf(binding.preview));
  return item;
}

/** The check-mode preview as the request carried it: tasks that would change per host, and the diff. */
function previewOf(preview) {
  const box = el('div', undefined, 'preview');
  if (!preview) {
    box.append(el('p', 'No check-mode preview (this step has none).'));
    return box;
  }
  if (preview.failure) {
    box.append(el('p', `Check-mode preview failed: ${preview.failure}`, 'bad'));
    return box;
  }
  const hosts = Object.entries(preview.changedTasks);
  box.append(
    el(
      'p',
      hosts.length
        ? 'Check-mode preview, tasks that would change:'
        : 'Check-mode preview: no changes reported.',
    ),
  );
  if (hosts.length) {
    const list = el('ul');
    for (const [host, tasks] of hosts) list.append(el('li', `${host}: ${tasks.join(', ')}`));
    box.append(list);
  }
  if (preview.diffExcerpt) box.append(el('pre', preview.diffExcerpt, 'diff'));
  return box;
}

/** Px per character of the timeline's 10 px labels, to tell whether a label fits its gap. */
const GAP_CHAR_PX = 6;

/**
 * The time before each step's bar where the job did something no bar shows, by step index: for
 * the first step the queue and the job's preconditions; before a step that asked for approval its
 * check-mode preview (run to show the approvers, approval-gate.ts); otherwise the step's checks.
 * Gaps shorter than `least` are left unmarked.
 */
function gapsOf(spans, createdAt, least) {
  const gaps = [];
  let previous = createdAt;
  spans.forEach((span, index) => {
    if (!span.start) return;
    if (span.start - previous >= Math.max(least, 1000)) {
      const what = [];
      if (index === 0 || previous === createdAt) what.push('queued, preconditions');
      what.push(span.waits.length ? 'check-mode preview' : 'checks');
      gaps[index] = { start: previous, end: span.start, what: what.join(', ') };
    }
    previous = Math.max(previous, span.end);
  });
  return gaps;
}

/** A gap as a dashed line up to the step's bar, labelled with what ran then and how long it took. */
function gapMark(gap, x, y) {
  const mark = document.createElementNS(SVG, 'g');
  mark.setAttribute('class', 'gap');
  const line = document.createElementNS(SVG, 'line');
  line.setAttribute('x1', String(x(gap.start)));
  line.setAttribute('x2', String(x(gap.end)));
  line.setAttribute('y1', String(y + 9));
  line.setAttribute('y2', String(y + 9));
  mark.append(line);
  const took = duration(gap.end - gap.start);
  const room = x(gap.end) - x(gap.start) - 8;
  const full = `${gap.what} ${took}`;
  const fits = [full, took].find((text) => text.length * GAP_CHAR_PX <= room);
  if (fits) {
    const label = document.createElementNS(SVG, 'text');
    label.setAttribute('class', 'gap-label');
    label.setAttribute('x', String(x(gap.end) - 4));
    label.setAttribute('y', String(y + 6));
    label.setAttribute('text-anchor', 'end');
    label.textContent = fits;
    mark.append(label);
  }
  const tip = document.createElementNS(SVG, 'title');
  tip.textContent = `${gap.what}: ${took}, ${clock(gap.start)} to ${clock(gap.end)}`;
  mark.append(tip);
  return mark;
}

function renderCilium(page) {
  // Each agent as the rollout step reached it, newest word per node (the step says which agent).
  const agents = new Map();
  for (const { event } of page.events) {
    const agent = event.type === 'step-progress' ? event.agent : undefined;
    if (!agent) continue;
    agents.set(agent.node, {
      node: agent.node ?? '?',
      agent: agent.pod,
      revision:
        agent.from && agent.from !== agent.to
          ? `${agent.from} → ${agent.to}`
          : `${agent.to ?? '?'} (unchanged)`,
      state: agent.ready ? 'Ready' : 'not Ready',
    });
  }
  $('cilium-section').hidden = agents.size === 0;
  const body = $('cilium').tBodies[0];
  body.replaceChildren();
  for (const agent of agents.values()) {
    const row = el('tr');
    for (const value of [agent.node, agent.agent, agent.revision, agent.state]) row.append(el('td', value));
    body.append(row);
  }
}

async function loadPage() {
  const response = await fetch(`${base}/data${query}`, { cache: 'no-store' });
  if (!response.ok) {
    $('title').textContent = `This job page cannot be shown (${response.status}).`;
    return;
  }
  data = await response.json();
  renderHeader(data);
  renderSteps(data);
  renderTimeline(data);
  renderApprovals(data);
  renderCilium(data);
}

// --- the log ----------------------------------------------------------------------------------------

function matches(index) {
  const line = log.lines[index];
  const host = $('host').value;
  if (host && !(line.includes(`[${host}]`) || line.startsWith(`${host} `))) return false;
  if ($('filter').value === 'failed') return FAILURE.test(line);
  return true;
}

function refilter() {
  const active = $('filter').value !== 'all' || $('host').value !== '';
  log.shown = null;
  if (!active) return;
  const shown = [];
  let task = -1;
  for (let i = 0; i < log.lines.length; i += 1) {
    if (TASK.test(log.lines[i])) task = i;
    else if (matches(i)) {
      if ($('filter').value === 'failed' && task >= 0 && shown[shown.length - 1] !== task) shown.push(task);
      shown.push(i);
    }
  }
  log.shown = shown;
  log.lastTask = task;
}

function append(lines, at) {
  const from = log.lines.length;
  for (const line of lines) {
    log.lines.push(line);
    log.times.push(at);
    const host = HOST.exec(line);
    if (host && !log.hosts.has(host[1])) addHost(host[1]);
    const recap = RECAP.exec(line);
    if (recap) {
      if (!log.hosts.has(recap[1])) addHost(recap[1]);
      log.recap.set(
        recap[1],
        recap.slice(2).map((n) => n || '0'),
      );
      log.recapVersion += 1;
    }
  }
  if (log.shown) {
    for (let i = from; i < log.lines.length; i += 1) {
      if (TASK.test(log.lines[i])) log.lastTask = i;
      else if (matches(i)) {
        const failedOnly = $('filter').value === 'failed';
        if (failedOnly && log.lastTask >= 0 && log.shown[log.shown.length - 1] !== log.lastTask) {
          log.shown.push(log.lastTask);
        }
        log.shown.push(i);
      }
    }
  }
  schedule();
}

function addHost(name) {
  log.hosts.add(name);
  const option = el('option', name);
  option.value = name;
  $('host').append(option);
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    renderLog();
  });
}

function rowClass(line) {
  if (FAILURE.test(line) || line.startsWith('fatal:')) return 'row bad';
  if (line.startsWith('changed:')) return 'row changed';
  if (TASK.test(line) || line.startsWith('PLAY ')) return 'row task';
  return 'row';
}

function renderLog() {
  const box = $('log');
  const total = log.shown ? log.shown.length : log.lines.length;
  $('log-spacer').style.height = `${total * ROW_PX}px`;
  if ($('follow').checked) box.scrollTop = box.scrollHeight;
  const first = Math.max(0, Math.floor(box.scrollTop / ROW_PX) - OVERSCAN);
  const last = Math.min(total, Math.ceil((box.scrollTop + box.clientHeight) / ROW_PX) + OVERSCAN);
  const rows = $('log-rows');
  rows.style.transform = `translateY(${first * ROW_PX}px)`;
  const children = [];
  const withTimes = $('times').checked;
  for (let i = first; i < last; i += 1) {
    const index = log.shown ? log.shown[i] : i;
    const line = log.lines[index];
    const row = el('div', line, index === log.target ? `${rowClass(line)} target` : rowClass(line));
    if (withTimes) row.prepend(el('span', lineTime(log.times[index]), 'time'));
    children.push(row);
  }
  rows.replaceChildren(...children);
  $('log-count').textContent = `(${log.lines.length.toLocaleString('en')} lines)`;
  document.body.dataset.lines = String(log.lines.length);
  renderRecap();
}

/** A line's time to the millisecond, as the log's own clock: `12:04:31.207`. */
function lineTime(at) {
  return Number.isFinite(at) ? new Date(at).toISOString().slice(11, 23) : '';
}

function renderRecap() {
  const body = $('recap').tBodies[0];
  if (log.recapShown === log.recapVersion) return;
  log.recapShown = log.recapVersion;
  body.replaceChildren();
  for (const [host, counts] of log.recap) {
    const row = el('tr');
    row.append(el('td', host));
    counts.forEach((count, i) => {
      row.append(el('td', count, (i === 2 || i === 3) && count !== '0' ? 'bad' : ''));
    });
    body.append(row);
  }
}

function followLog() {
  const state = $('stream-state');
  const source = new EventSource(`${base}/log${query}`);
  source.addEventListener('lines', (message) => {
    // Each event holds the lines of one millisecond: its id's time (log-events.ts).
    append(message.data.split('\n'), Number(message.lastEventId.split('-')[0]));
    state.textContent = 'live';
  });
  source.addEventListener('step', (message) => {
    // A step run again after a restart marks the log again: its link stays at its first output.
    if (log.stepStarts.has(message.data)) return;
    log.stepStarts.set(message.data, log.lines.length);
    if (data) renderSteps(data);
  });
  source.addEventListener('end', () => {
    source.close();
    log.ended = true;
    state.textContent = 'complete';
    document.body.dataset.ended = 'true';
    loadPage();
  });
  source.onerror = () => {
    state.textContent = source.readyState === EventSource.CLOSED ? 'stopped' : 'reconnecting…';
  };
}

function start() {
  const box = $('log');
  box.addEventListener('scroll', () => {
    const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - ROW_PX;
    if (!atEnd && $('follow').checked) $('follow').checked = false;
    schedule();
  });
  $('follow').addEventListener('change', schedule);
  $('times').addEventListener('change', schedule);
  for (const id of ['filter', 'host']) {
    $(id).addEventListener('change', () => {
      refilter();
      schedule();
    });
  }
  // The log and the page's data load side by side: the log is most of the bytes.
  loadPage();
  followLog();
  // The timeline and the steps change while the job runs: read them again until it ends.
  const timer = setInterval(() => {
    if (log.ended) clearInterval(timer);
    else loadPage();
  }, 2000);
}

start();
