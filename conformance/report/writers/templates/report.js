(function () {
  const rows = Array.from(document.querySelectorAll('tbody tr.result'));
  const filters = document.getElementById('filters');
  const draft = document.getElementById('draft'), level = document.getElementById('level');
  const search = document.getElementById('search'), shown = document.getElementById('shown');
  const statuses = Array.from(document.querySelectorAll('input.status-filter'));
  function apply() {
    const wanted = new Set(statuses.filter(s => s.checked).map(s => s.value));
    const words = search.value.trim().toLowerCase();
    let count = 0;
    for (const row of rows) {
      const visible = (!draft.value || row.dataset.draft === draft.value) && (!level.value || row.dataset.level === level.value)
        && wanted.has(row.dataset.status) && (!words || row.textContent.toLowerCase().includes(words));
      row.hidden = !visible;
      if (visible) count += 1;
    }
    shown.textContent = count + ' of ' + rows.length + ' results shown';
  }
  for (const link of document.querySelectorAll('a[data-status]')) {
    link.addEventListener('click', function () {
      draft.value = link.dataset.draft || '';
      level.value = link.dataset.level || '';
      for (const s of statuses) s.checked = s.value === link.dataset.status;
      search.value = '';
      apply();
    });
  }
  for (const control of [draft, level, search, ...statuses]) for (const kind of ['input', 'change']) control.addEventListener(kind, apply);
  filters.hidden = false;
  apply();
})();
