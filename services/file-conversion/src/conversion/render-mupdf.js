// Runs inside MuPDF's own interpreter (`mutool run`, MuJS: ES5 only), never in Node. render-pdf.ts starts it,
// sandboxed, once per document:
//   mutool run render-mupdf.js PDF OUT_DIR MAX_PAGES MAX_LONG_SIDE MAX_ASPECT MAX_IMAGE_PIXELS THUMBNAIL_WIDTH
// It checks the whole-document limits before drawing anything, then for each page: its shape, the size of every
// image it paints (before any is decoded), the drawing and its thumbnail (raw PPMs in OUT_DIR) and its text.
// Protocol: one JSON object per line on stdout (opened, page, error, done). Before each page it reads one line
// from stdin, a credit from the caller, so it never runs more than the caller's window ahead of the encoder.
var pdfPath = scriptArgs[0];
var outDir = scriptArgs[1];
var maxPages = Number(scriptArgs[2]);
var maxLongSide = Number(scriptArgs[3]);
var maxAspect = Number(scriptArgs[4]);
var maxImagePixels = Number(scriptArgs[5]);
var thumbnailWidth = Number(scriptArgs[6]);
var IDENTITY = [1, 0, 0, 1, 0, 0];

function emit(message) {
  print(JSON.stringify(message));
}

function refuse(code, message) {
  emit({ type: 'error', code: code, message: message });
  quit();
}

// A device that draws nothing and only looks at the images a page paints; MuPDF calls every method, so every
// method exists. Images are not decoded to be measured: their dictionaries give the size.
var imageTooLarge = false;
var inspector = {};
[
  'fillPath',
  'strokePath',
  'clipPath',
  'clipStrokePath',
  'fillText',
  'strokeText',
  'clipText',
  'clipStrokeText',
  'ignoreText',
  'fillShade',
  'popClip',
  'beginMask',
  'endMask',
  'beginGroup',
  'endGroup',
  'beginTile',
  'endTile',
  'beginLayer',
  'endLayer',
  'beginStructure',
  'endStructure',
  'beginMetatext',
  'endMetatext',
  'renderFlags',
  'setDefaultColorSpaces',
  'close'
].forEach(function (name) {
  inspector[name] = function () {
    return 0;
  };
});
inspector.fillImage =
  inspector.fillImageMask =
  inspector.clipImageMask =
    function (image) {
      if (image.getWidth() * image.getHeight() > maxImagePixels) imageTooLarge = true;
      return 0;
    };

// Control characters, and the two separators Node's line readers split on, become spaces: one page, one line.
function pageText(list) {
  var text = [];
  list.toStructuredText().walk({
    onChar: function (c) {
      var code = c.charCodeAt(0);
      text.push(code < 32 || code === 0x2028 || code === 0x2029 ? ' ' : c);
    },
    endLine: function () {
      text.push('\n');
    }
  });
  return text.join('');
}

// Draws the page onto exactly w x h pixels, into PREFIX-1.ppm (the writer numbers its own pages from 1), where
// render-pdf.ts reads it. The writer draws at 72 dpi onto a box already in pixels, with the scale in the page's
// matrix: a scale given through its width or height options comes out a pixel too long on some page sizes.
function draw(list, box, w, h, prefix) {
  var width = box[2] - box[0];
  var height = box[3] - box[1];
  var writer = new DocumentWriter(prefix + '-%d.ppm', 'ppm', 'resolution=72,colorspace=rgb');
  var device = writer.beginPage([0, 0, w, h]);
  list.run(device, [w / width, 0, 0, h / height, (-box[0] * w) / width, (-box[1] * h) / height]);
  writer.endPage();
  writer.close();
}

var doc;
try {
  doc = new Document(pdfPath);
} catch (e) {
  refuse('FILE_CORRUPT', 'the PDF cannot be read: ' + e);
}
if (doc.needsPassword()) refuse('FILE_ENCRYPTED', 'the PDF is protected by a password');
var pageCount;
try {
  pageCount = doc.countPages();
} catch (e) {
  refuse('FILE_CORRUPT', 'the PDF has no readable page tree: ' + e);
}
if (pageCount > maxPages) refuse('FILE_TOO_MANY_PAGES', pageCount + ' pages; at most ' + maxPages + ' are accepted');
if (pageCount < 1) refuse('FILE_CORRUPT', 'the PDF has no pages');
emit({ type: 'opened', numPages: pageCount });

for (var i = 0; i < pageCount; i++) {
  // readline throws once the caller closes stdin (the job was stopped): the script ends there.
  if (readline() !== 'next') quit();
  var pageNumber = i + 1;
  var page;
  try {
    page = doc.loadPage(i);
  } catch (e) {
    refuse('FILE_CORRUPT', 'page ' + pageNumber + ' cannot be read: ' + e);
  }
  var box = page.bound();
  var width = box[2] - box[0];
  var height = box[3] - box[1];
  var long = Math.max(width, height);
  var short = Math.min(width, height);
  if (!(short > 0) || !isFinite(long)) refuse('FILE_PAGE_TOO_LARGE', 'page ' + pageNumber + ' has no area');
  if (long / short > maxAspect) {
    refuse(
      'FILE_PAGE_TOO_LARGE',
      'page ' + pageNumber + ' is ' + Math.round(long / short) + ' times longer than wide (limit ' + maxAspect + ')'
    );
  }
  // The page's content is interpreted once, into a display list that the checks, both drawings and the text
  // extraction replay. Images in it are not decoded until a drawing needs them, so the check comes first.
  var list = page.toDisplayList(true);
  list.run(inspector, IDENTITY);
  if (imageTooLarge) refuse('FILE_IMAGE_TOO_LARGE', 'page ' + pageNumber + ' holds an image above the pixel limit');
  var scale = maxLongSide / long;
  var w = width >= height ? maxLongSide : Math.max(1, Math.round(width * scale));
  var h = width >= height ? Math.max(1, Math.round(height * scale)) : maxLongSide;
  draw(list, box, w, h, outDir + '/' + pageNumber);
  // The thumbnail is drawn at its own size too: a second drawing costs MuPDF a few milliseconds, where shrinking
  // the full page costs sharp about a quarter of the page's encoding time.
  var tw = Math.min(thumbnailWidth, w);
  draw(list, box, tw, Math.max(1, Math.round((h * tw) / w)), outDir + '/' + pageNumber + 't');
  emit({
    type: 'page',
    pageNumber: pageNumber,
    text: pageText(list)
  });
}
emit({ type: 'done' });
