// The parts of a new game's form that a seek's form shares (home.js,
// lobby.js): the variant's options, and the time control.

import { h } from './dom.js';

/** The inputs of `variant`'s options. */
export function optionInputs(variant) {
  return variant.options.map((option) => {
    // An option naming data the server offers (a deck): one of its names;
    // the first is what the variant plays without the option.
    if (option.choices) {
      const select = h('select', { name: `opt-${option.name}`, 'data-option': option.name, 'data-valued': '1', 'data-default': option.choices[0] },
        option.choices.map((name) => h('option', { value: name }, name)));
      return h('label', { class: 'option' }, `${option.name} `, select, h('small', {}, ` ${option.summary}`));
    }
    if (option.value) {
      return h('label', { class: 'option' }, `${option.name} `, h('input', { name: `opt-${option.name}`, placeholder: option.value, 'data-option': option.name, 'data-valued': '1' }), h('small', {}, ` ${option.summary}`));
    }
    return h('label', { class: 'option' }, h('input', { type: 'checkbox', 'data-option': option.name }), ` ${option.name} `, h('small', {}, option.summary));
  });
}

/** The variant string the option inputs inside `container` choose (`lunch:deck=NAME`). */
export function chosenVariant(container, variant) {
  const chosen = [];
  for (const input of container.querySelectorAll('[data-option]')) {
    if (input.dataset.valued) {
      const value = input.value.trim();
      if (value && value !== input.dataset.default) chosen.push(`${input.dataset.option}=${value}`);
    } else if (input.checked) {
      chosen.push(input.dataset.option);
    }
  }
  return chosen.length ? `${variant.id}:${chosen.join(',')}` : variant.id;
}

/// The time control of a new game: unlimited, minutes + increment, or days
/// a move (correspondence).
export function timeControlInputs() {
  const kind = h('select', { name: 'clock' },
    h('option', { value: 'none' }, 'unlimited'),
    h('option', { value: 'fischer' }, 'minutes + increment'),
    h('option', { value: 'days' }, 'days a move'));
  const minutes = h('input', { name: 'minutes', type: 'number', min: '0.05', max: '10080', step: 'any', value: '5', class: 'short-number', 'aria-label': 'minutes' });
  const increment = h('input', { name: 'increment', type: 'number', min: '0', max: '86400', step: 'any', value: '3', class: 'short-number', 'aria-label': 'increment in seconds' });
  const days = h('input', { name: 'days', type: 'number', min: '1', max: '30', step: '1', value: '3', class: 'short-number', 'aria-label': 'days a move' });
  const fischer = h('span', { hidden: true }, minutes, ' min + ', increment, ' s');
  const corr = h('span', { hidden: true }, days, ' days');
  kind.addEventListener('change', () => { fischer.hidden = kind.value !== 'fischer'; corr.hidden = kind.value !== 'days'; });
  return {
    element: h('label', {}, 'Time ', kind, ' ', fischer, corr),
    value: () => {
      if (kind.value === 'fischer') return { initial: Number(minutes.value) * 60, increment: Number(increment.value) };
      if (kind.value === 'days') return { days: Number(days.value) };
      return undefined;
    },
  };
}
