/**
 * The notification preferences' switches (preference-switches.tsx): a group's switch turns its kinds'
 * switches with it, and a kind's switch turned on its own shows the group as it now stands (on, off,
 * or mixed with how many are on). Each change also notes the group's state as shown, so the form's
 * rule (notification-prefs.model.ts groupDecides) leaves the kinds' switches to say what is saved.
 * Without script the same form works: a changed group's switch sets its kinds.
 */
import { eachIsland } from '@/web/client/island';
import { groupState, mixedWords } from './notification-prefs.model';

function mountGroup(group: HTMLElement) {
  for (const sw of group.querySelectorAll<HTMLInputElement>('[data-group-switch]')) {
    const ch = sw.dataset.groupSwitch!;
    const kinds = [...group.querySelectorAll<HTMLInputElement>(`[data-kind-switch="${CSS.escape(ch)}"]`)];
    const was = group.querySelector<HTMLInputElement>(`[data-was="${CSS.escape(ch)}"]`);
    const label = group.querySelector<HTMLLabelElement>(`label[for="${CSS.escape(sw.id)}"]`);
    let note = label?.querySelector<HTMLElement>('.switch-note') ?? null;
    const show = () => {
      const values = kinds.map((k) => k.checked);
      const state = groupState(values);
      sw.checked = state === 'on';
      sw.classList.toggle('switch-mixed', state === 'mixed');
      if (was) was.value = state;
      if (state === 'mixed') {
        if (!note && label) {
          note = document.createElement('span');
          note.className = 'switch-note';
          note.id = `${sw.id}-note`;
          label.append(note);
          sw.setAttribute('aria-describedby', note.id);
        }
        if (note) note.textContent = mixedWords(values);
      }
      if (note) note.hidden = state !== 'mixed';
    };
    sw.addEventListener('change', () => {
      for (const k of kinds) k.checked = sw.checked;
      show();
    });
    for (const k of kinds) k.addEventListener('change', show);
  }
}

eachIsland<Record<string, never>>('prefs', (form) => {
  for (const group of form.querySelectorAll<HTMLElement>('[data-pref-group]')) mountGroup(group);
});
