// @ts-check
// The console's only script, served as it is from /console/console.js (same origin, so the CSP
// allows it and nothing else). Plain ES2020 without a build step: it calls the portal's JSON
// endpoints with the session cookie, shows each refusal next to the field it names, and sends every
// form once. The secret of an issued token lives only in the DOM until the member hides it or
// leaves. ESLint reads it with the browser's globals and the type checker with the DOM library
// (gateway/src/console/tsconfig.json); console-script.ts hands it to the router.
(function () {
  'use strict';
  var $ = function (sel) {
    return document.querySelector(sel);
  };
  var page = document.body.dataset.page;
  var FIELD_LABELS = {
    tenantId: 'Tenant id',
    email: 'Email',
    password: 'Password',
    name: 'Name',
    role: 'Role',
    permissions: 'Narrowing',
    projectIds: 'Projects',
    memberId: 'Bound to member',
    expiresAt: 'Expires',
    'Idempotency-Key': 'Form',
    tokenId: 'Token id',
    runId: 'Agent run id',
    resourceId: 'Resource id',
    action: 'Action',
  };

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return (
      'form-' +
      Array.prototype.map
        .call(bytes, function (b) {
          return ('0' + b.toString(16)).slice(-2);
        })
        .join('')
    );
  }

  function call(method, path, body, headers) {
    /** @type {RequestInit & { headers: Record<string, string> }} */
    var init = {
      method: method,
      credentials: 'same-origin',
      headers: Object.assign({ accept: 'application/json' }, headers || {}),
    };
    if (method !== 'GET') {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body || {});
    }
    return fetch(path, init).then(
      function (res) {
        return res
          .json()
          .catch(function () {
            return { ok: false, error: 'The server answered something unexpected; try again.' };
          })
          .then(function (data) {
            return { status: res.status, body: data };
          });
      },
      function () {
        return {
          status: 0,
          body: {
            ok: false,
            code: 'unavailable',
            error: 'The console cannot reach the server; check the connection and try again.',
          },
        };
      },
    );
  }

  function text(value) {
    return value === null || value === undefined || value === '' ? '—' : String(value);
  }
  function cell(row, value, cls) {
    var td = document.createElement('td');
    td.textContent = text(value);
    if (cls) td.className = cls;
    row.appendChild(td);
    return td;
  }
  function when(iso) {
    return iso ? iso.slice(0, 16).replace('T', ' ') : null;
  }

  function clearErrors(form) {
    form.querySelectorAll('.field-error').forEach(function (el) {
      el.remove();
    });
    form.querySelectorAll('[aria-invalid]').forEach(function (el) {
      el.removeAttribute('aria-invalid');
    });
    var alert = form.querySelector('#form-error');
    if (alert) alert.textContent = '';
  }

  /** Shows a refusal on the form: the field it names is marked and the sentence put beside it. */
  function showError(form, body) {
    clearErrors(form);
    var field = body.field ? String(body.field).split('.')[0] : '';
    var label = FIELD_LABELS[field];
    var message = body.error || 'The request was refused; try again.';
    var alert = form.querySelector('#form-error');
    if (alert) alert.textContent = (label ? label + ': ' : '') + message;
    var box = field && form.querySelector('[data-field="' + field + '"]');
    if (!box) return;
    var input = box.matches('fieldset') ? box : box.querySelector('input,select,textarea');
    var note = document.createElement('p');
    note.className = 'field-error';
    note.id = 'error-' + field;
    note.textContent = message;
    box.appendChild(note);
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute(
        'aria-describedby',
        ((input.getAttribute('aria-describedby') || '').replace(/\s*error-\S+/g, '') + ' ' + note.id).trim(),
      );
      input.focus();
    }
  }

  /** Sends a form once: the button is disabled until the answer, so a double click sends nothing more. */
  function onSubmit(form, send) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (form.dataset.busy === '1') return;
      form.dataset.busy = '1';
      var buttons = form.querySelectorAll('button[type=submit]');
      buttons.forEach(function (b) {
        b.disabled = true;
      });
      Promise.resolve()
        .then(send)
        .finally(function () {
          form.dataset.busy = '';
          buttons.forEach(function (b) {
            b.disabled = false;
          });
        });
    });
  }

  function requireSession() {
    return call('GET', '/api/portal/session').then(function (reply) {
      if (reply.status === 401) {
        location.replace('/console/');
        return new Promise(function () {});
      }
      if (!reply.body.ok) throw new Error(reply.body.error);
      $('#who').textContent =
        reply.body.member.email + ' (' + reply.body.role.name + ') · ' + reply.body.tenant.name;
      $('#logout').addEventListener('click', function () {
        call('POST', '/api/portal/logout').then(function () {
          location.assign('/console/');
        });
      });
      return reply.body;
    });
  }

  // ---- Log in ----
  function loginPage() {
    call('GET', '/api/portal/session').then(function (reply) {
      if (reply.status === 200) location.replace('/console/tokens');
    });
    var form = $('#login-form');
    var tenant = new URLSearchParams(location.search).get('tenant');
    if (tenant) $('#tenantId').value = tenant;
    onSubmit(form, function () {
      var body = {
        tenantId: $('#tenantId').value.trim(),
        email: $('#email').value.trim(),
        password: $('#password').value,
      };
      return call('POST', '/api/portal/login', body).then(function (reply) {
        if (reply.status === 200) {
          location.assign('/console/tokens');
          return;
        }
        showError(form, reply.body);
        if (!reply.body.field) $('#password').focus();
      });
    });
  }

  // ---- API tokens ----
  var options = null;
  var members = {};

  function narrowingText(permissions) {
    if (!permissions) return 'whole role';
    return Object.keys(permissions)
      .map(function (kind) {
        return kind + ': ' + permissions[kind].join(', ');
      })
      .join('; ');
  }

  function memberText(id) {
    if (!id) return 'nobody';
    return members[id] ? members[id].name + ' <' + members[id].email + '>' : id;
  }

  function renderGrid() {
    var role = options.roles.find(function (r) {
      return r.name === $('#role').value;
    }) || { permissions: {} };
    var head = $('#grid thead');
    var body = $('#grid tbody');
    head.innerHTML = '';
    body.innerHTML = '';
    var hr = document.createElement('tr');
    var corner = document.createElement('th');
    corner.scope = 'col';
    corner.textContent = 'Kind';
    hr.appendChild(corner);
    options.actions.forEach(function (action) {
      var th = document.createElement('th');
      th.scope = 'col';
      th.textContent = action;
      hr.appendChild(th);
    });
    head.appendChild(hr);
    options.kinds.forEach(function (kind) {
      var tr = document.createElement('tr');
      var th = document.createElement('th');
      th.scope = 'row';
      th.textContent = kind;
      tr.appendChild(th);
      options.actions.forEach(function (action) {
        var td = document.createElement('td');
        var box = document.createElement('input');
        box.type = 'checkbox';
        box.name = 'perm';
        box.value = kind + ':' + action;
        box.setAttribute('aria-label', action + ' ' + kind);
        box.disabled = !(role.permissions[kind] || []).includes(action) || !$('#narrow').checked;
        td.appendChild(box);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }

  function fillIssueForm() {
    var roleSelect = $('#role');
    options.roles.forEach(function (role) {
      var opt = document.createElement('option');
      opt.value = role.name;
      opt.textContent = role.name;
      roleSelect.appendChild(opt);
    });
    roleSelect.addEventListener('change', renderGrid);
    $('#narrow').addEventListener('change', renderGrid);
    renderGrid();
    options.members.forEach(function (m) {
      members[m.id] = m;
    });
    if (options.canBindOthers) {
      $('#member-field').hidden = false;
      var select = $('#memberId');
      [['', 'Me (the default)']]
        .concat(
          options.members.map(function (m) {
            return [m.id, m.name + ' <' + m.email + '>'];
          }),
          [['__nobody__', 'Nobody (not bound to a member)']],
        )
        .forEach(function (pair) {
          var opt = document.createElement('option');
          opt.value = pair[0];
          opt.textContent = pair[1];
          select.appendChild(opt);
        });
    }
  }

  function issueBody() {
    var body = { role: $('#role').value };
    var name = $('#name').value.trim();
    if (name) body.name = name;
    if ($('#narrow').checked) {
      var permissions = {};
      document.querySelectorAll('input[name=perm]:checked').forEach(function (box) {
        var parts = /** @type {HTMLInputElement} */ (box).value.split(':');
        (permissions[parts[0]] = permissions[parts[0]] || []).push(parts[1]);
      });
      body.permissions = permissions;
    }
    var projects = $('#projectIds')
      .value.split(',')
      .map(function (s) {
        return s.trim();
      })
      .filter(Boolean);
    if (projects.length) body.projectIds = projects;
    if (options.canBindOthers && $('#memberId').value)
      body.memberId = $('#memberId').value === '__nobody__' ? null : $('#memberId').value;
    var expires = $('#expiresAt').value;
    if (expires) {
      var at = new Date(expires);
      body.expiresAt = isNaN(at.getTime()) ? expires : at.toISOString();
    }
    return body;
  }

  function showIssued(token) {
    var panel = $('#issued');
    $('#secret').textContent = token.secret;
    $('#copy-status').textContent = '';
    $('#me').textContent = 'Asking /api/v1/me…';
    panel.hidden = false;
    panel.focus();
    fetch('/api/v1/me', {
      headers: { authorization: 'Bearer ' + token.secret, accept: 'application/json' },
      credentials: 'omit',
    })
      .then(function (res) {
        return res.json();
      })
      .then(
        function (me) {
          $('#me').textContent = JSON.stringify(me, null, 2);
        },
        function () {
          $('#me').textContent = 'The /me call failed; the token is issued all the same.';
        },
      );
  }

  function tokensPage() {
    var form = $('#issue-form');
    form.dataset.key = newKey();
    var cursor = null;
    var myRole = null;
    requireSession()
      .then(function (session) {
        myRole = session.role.name;
        return call('GET', '/api/portal/token-options');
      })
      .then(function (reply) {
        options = reply.body;
        fillIssueForm();
        $('#role').value = myRole;
        renderGrid();
        loadTokens(false);
      });

    function loadTokens(more) {
      var path =
        '/api/portal/tokens?limit=50' + (more && cursor ? '&cursor=' + encodeURIComponent(cursor) : '');
      return call('GET', path).then(function (reply) {
        if (!reply.body.ok) {
          $('#list-error').textContent = reply.body.error;
          return;
        }
        var tbody = $('#tokens tbody');
        if (!more) tbody.innerHTML = '';
        reply.body.items.forEach(function (token) {
          tbody.appendChild(tokenRow(token));
        });
        cursor = reply.body.nextCursor;
        $('#more').hidden = !cursor;
      });
    }
    $('#more').addEventListener('click', function () {
      loadTokens(true);
    });

    function tokenRow(token) {
      var tr = document.createElement('tr');
      tr.dataset.tokenId = token.id;
      cell(tr, token.name);
      cell(tr, token.display, 'mono');
      cell(tr, token.role);
      cell(tr, narrowingText(token.permissions));
      cell(tr, token.projectIds ? token.projectIds.join(', ') : 'all');
      cell(tr, memberText(token.memberId));
      cell(tr, when(token.expiresAt) || 'never');
      cell(tr, when(token.lastUsedAt) || 'never');
      cell(tr, token.status + (token.revokedAt ? ' ' + when(token.revokedAt) : ''), 'status-' + token.status);
      var actions = cell(tr, '');
      actions.textContent = '';
      var audit = document.createElement('a');
      audit.href = '/console/audit?tokenId=' + encodeURIComponent(token.id);
      audit.textContent = 'Audit';
      audit.setAttribute('aria-label', 'Audit trail of ' + (token.name || token.display));
      actions.appendChild(audit);
      if (token.status === 'active') {
        var revoke = document.createElement('button');
        revoke.type = 'button';
        revoke.className = 'danger revoke';
        revoke.textContent = 'Revoke';
        revoke.setAttribute('aria-label', 'Revoke ' + (token.name || token.display));
        revoke.addEventListener('click', function () {
          revoke.disabled = true;
          call('POST', '/api/portal/tokens/' + encodeURIComponent(token.id) + '/revoke').then(
            function (reply) {
              if (!reply.body.ok) {
                $('#list-error').textContent = reply.body.error;
                revoke.disabled = false;
                return;
              }
              $('#notice').textContent =
                'Token ' +
                (token.name || token.display) +
                ' is revoked: every call with it is refused from now on.';
              tr.replaceWith(tokenRow(reply.body.token));
            },
          );
        });
        actions.appendChild(document.createTextNode(' '));
        actions.appendChild(revoke);
      }
      return tr;
    }

    onSubmit(form, function () {
      clearErrors(form);
      return call('POST', '/api/portal/tokens', issueBody(), { 'idempotency-key': form.dataset.key }).then(
        function (reply) {
          if (reply.status !== 201) {
            showError(form, reply.body);
            return;
          }
          form.dataset.key = newKey();
          form.reset();
          renderGrid();
          showIssued(reply.body.token);
          loadTokens(false);
        },
      );
    });

    $('#copy').addEventListener('click', function () {
      var secret = $('#secret').textContent;
      navigator.clipboard.writeText(secret).then(
        function () {
          $('#copy-status').textContent = 'Copied to the clipboard.';
        },
        function () {
          var range = document.createRange();
          range.selectNodeContents($('#secret'));
          var sel = getSelection();
          sel.removeAllRanges();
          sel.addRange(range);
          $('#copy-status').textContent = 'Copying was not allowed; the secret is selected: press Ctrl+C.';
        },
      );
    });
    $('#done').addEventListener('click', function () {
      $('#secret').textContent = '';
      $('#me').textContent = '';
      $('#issued').hidden = true;
      $('#name').focus();
    });
  }

  // ---- Audit trail ----
  function auditPage() {
    var form = $('#audit-filter');
    var FILTERS = ['tokenId', 'runId', 'resourceId', 'action'];
    var cursor = null;
    var params = new URLSearchParams(location.search);
    FILTERS.forEach(function (name) {
      $('#' + name).value = params.get(name) || '';
    });
    requireSession().then(function () {
      verify();
      load(false);
    });

    function verify() {
      call('GET', '/api/portal/audit/verify').then(function (reply) {
        var chain = $('#chain');
        if (!reply.body.ok) {
          chain.textContent = reply.body.error;
          return;
        }
        var v = reply.body;
        chain.dataset.valid = String(v.valid);
        chain.className = v.valid ? 'chain-valid' : 'chain-broken';
        chain.textContent = v.valid
          ? 'Valid: all ' + v.length + ' entries hold (head is entry #' + v.headSeq + ').'
          : 'Broken at entry #' + v.brokenAtSeq + ': ' + (v.problem || 'its hash does not match');
        $('#head-hash').textContent = v.headHash || '(empty chain)';
      });
    }

    function query(more) {
      var q = new URLSearchParams();
      FILTERS.forEach(function (name) {
        var value = $('#' + name).value.trim();
        if (value) q.set(name, value);
      });
      history.replaceState(null, '', '/console/audit' + (q.toString() ? '?' + q : ''));
      q.set('limit', '50');
      if (more && cursor) q.set('cursor', cursor);
      return q.toString();
    }

    function load(more) {
      return call('GET', '/api/portal/audit?' + query(more)).then(function (reply) {
        if (!reply.body.ok) {
          if (reply.body.field) showError(form, reply.body);
          else $('#list-error').textContent = reply.body.error;
          return;
        }
        clearErrors(form);
        $('#list-error').textContent = '';
        var tbody = $('#entries tbody');
        if (!more) tbody.innerHTML = '';
        reply.body.items.forEach(function (entry) {
          tbody.appendChild(entryRow(entry));
        });
        if (!more && !reply.body.items.length) {
          var tr = document.createElement('tr');
          var td = cell(tr, 'No entries match these filters.');
          td.colSpan = 8;
          tbody.appendChild(tr);
        }
        cursor = reply.body.nextCursor;
        $('#more').hidden = !cursor;
      });
    }

    function entryRow(entry) {
      var tr = document.createElement('tr');
      tr.dataset.action = entry.action;
      tr.dataset.tokenId = entry.tokenId;
      cell(tr, entry.seq);
      cell(tr, when(entry.at));
      cell(tr, entry.action + ' (' + entry.operation + ')');
      cell(tr, entry.resourceKind + ' ' + entry.resourceId, 'mono');
      cell(tr, entry.tokenId || entry.principalKind, 'mono');
      cell(tr, entry.memberId, 'mono');
      cell(tr, entry.requestId, 'mono');
      var a = entry.agent || {};
      var agent = [
        'run ' + text(a.runId),
        'task ' + text(a.task),
        'model ' + text(a.model),
        'confirmed by ' + text(a.confirmedBy),
      ];
      cell(
        tr,
        a.runId || a.task || a.model || a.confirmedBy ? agent.join(' · ') : 'no agent headers',
        'agent',
      );
      return tr;
    }

    onSubmit(form, function () {
      return load(false);
    });
    form.addEventListener('reset', function () {
      setTimeout(function () {
        load(false);
      }, 0);
    });
    $('#more').addEventListener('click', function () {
      load(true);
    });
  }

  if (page === 'login') loginPage();
  if (page === 'tokens') tokensPage();
  if (page === 'audit') auditPage();
})();
