import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cartTotal } from '../src/cart.js';

test('an empty cart costs nothing', () => {
  assert.equal(cartTotal([]), 0);
});

test('single items add up', () => {
  assert.equal(cartTotal([{ name: 'pen', price: 1.5, quantity: 1 }, { name: 'pad', price: 3, quantity: 1 }]), 4.5);
});

test('quantities multiply the price', () => {
  assert.equal(cartTotal([{ name: 'pen', price: 1.5, quantity: 4 }]), 6);
});

test('the discount applies to the whole cart', () => {
  assert.equal(cartTotal([{ name: 'pen', price: 2, quantity: 5 }], { discountPercent: 10 }), 9);
});
