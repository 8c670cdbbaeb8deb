/**
 * The total of a cart: each item's price times its quantity, minus an optional percentage
 * discount, rounded to cents.
 * @param {{ name: string, price: number, quantity: number }[]} items
 * @param {{ discountPercent?: number }} [options]
 * @returns {number}
 */
export function cartTotal(items, { discountPercent = 0 } = {}) {
  const subtotal = items.reduce((sum, item) => sum + item.price, 0);
  const discounted = subtotal * (1 - discountPercent / 100);
  return Math.round(discounted * 100) / 100;
}
