/**
 * Word lists for plan slugs (`quiet-copper-lantern`): a quality, a colour or material, a thing.
 * Chosen to be short, neutral and pleasant to read in a file name; lower-case ASCII only.
 */

/** First word: a calm quality. */
export const SLUG_QUALITIES: readonly string[] = [
  'quiet', 'gentle', 'bright', 'brave', 'calm', 'clever', 'cosy', 'crisp', 'curious', 'daring',
  'eager', 'early', 'easy', 'fair', 'fancy', 'fine', 'fleet', 'fond', 'fresh', 'friendly',
  'glad', 'golden', 'graceful', 'grand', 'happy', 'hardy', 'hearty', 'honest', 'humble', 'jolly',
  'keen', 'kind', 'lively', 'lofty', 'loyal', 'lucky', 'merry', 'mellow', 'mighty', 'mild',
  'modest', 'neat', 'nimble', 'noble', 'patient', 'peaceful', 'plucky', 'polite', 'proud', 'quick',
  'rapid', 'ready', 'restful', 'rustic', 'serene', 'sharp', 'shiny', 'silent', 'simple', 'sleek',
  'smooth', 'snug', 'soft', 'spry', 'steady', 'still', 'sturdy', 'sunny', 'sure', 'swift',
  'tidy', 'tender', 'thrifty', 'tranquil', 'trusty', 'upbeat', 'valiant', 'vivid', 'warm', 'wise',
  'witty', 'young', 'zesty', 'ample', 'breezy', 'candid', 'cheerful', 'dapper', 'dreamy', 'earnest',
  'elegant', 'festive', 'gallant', 'jaunty', 'lucid', 'mindful', 'radiant', 'sincere', 'stellar', 'wistful',
];

/** Second word: a colour, material or texture. */
export const SLUG_TONES: readonly string[] = [
  'amber', 'ashen', 'azure', 'bronze', 'cedar', 'chalk', 'cobalt', 'copper', 'coral', 'cotton',
  'crimson', 'crystal', 'denim', 'ebony', 'emerald', 'flint', 'frosted', 'garnet', 'granite', 'hazel',
  'indigo', 'ivory', 'jade', 'khaki', 'lacquer', 'lemon', 'lilac', 'linen', 'maple', 'marble',
  'honey', 'mint', 'misty', 'mossy', 'oaken', 'ochre', 'olive', 'onyx', 'opal', 'paper',
  'pearl', 'pewter', 'pine', 'plum', 'quartz', 'russet', 'saffron', 'sage', 'sandy', 'satin',
  'scarlet', 'silver', 'slate', 'sterling', 'stone', 'tawny', 'teal', 'timber', 'topaz', 'umber',
  'velvet', 'violet', 'walnut', 'willow', 'woolen',
];

/** Third word: an ordinary, friendly thing. */
export const SLUG_THINGS: readonly string[] = [
  'lantern', 'anchor', 'acorn', 'arbor', 'atlas', 'badge', 'basket', 'beacon', 'bell', 'bench',
  'bridge', 'brook', 'button', 'cabin', 'candle', 'canoe', 'canyon', 'castle', 'cello', 'chimney',
  'clover', 'comet', 'compass', 'cottage', 'crane', 'creek', 'dune', 'easel', 'falcon', 'feather',
  'fern', 'fjord', 'garden', 'glade', 'globe', 'harbor', 'harp', 'hearth', 'heron', 'hill',
  'island', 'kettle', 'kite', 'ladder', 'lagoon', 'lark', 'ledger', 'lighthouse', 'meadow', 'mill',
  'mitten', 'moon', 'notebook', 'oak', 'orchard', 'otter', 'paddle', 'parcel', 'pebble', 'pelican',
  'piano', 'pillow', 'planet', 'pond', 'quill', 'rainbow', 'raven', 'reef', 'ribbon', 'river',
  'robin', 'saddle', 'sail', 'satchel', 'scroll', 'shell', 'sparrow', 'spindle', 'spruce', 'star',
  'summit', 'teacup', 'thimble', 'thistle', 'tower', 'trail', 'tulip', 'valley', 'violin', 'voyage',
  'wagon', 'whistle', 'window', 'windmill', 'wren', 'yarn', 'zephyr', 'orbit', 'marsh', 'cove',
];
