// The JSON renderings a page read answers with (DocumentStore.pageJson), remembered per stored
// document object. The embedded store replaces a document's object on every write and never
// changes one in place, so one object is one version of the document: its rendering stays right
// for as long as the store holds the object, and is dropped with it (weak references both ways).
import type { Doc } from './port.ts';

export class Renderings {
  /** Per render function (a list's, made once), the rendering of each stored object it has seen. */
  private readonly byRender = new WeakMap<object, WeakMap<Doc, string>>();

  /** `render(doc)`, computed once per stored object and render function. */
  of<T extends Doc>(doc: Doc, render: (doc: T) => string): string {
    let rendered = this.byRender.get(render);
    if (rendered === undefined) {
      rendered = new WeakMap();
      this.byRender.set(render, rendered);
    }
    let json = rendered.get(doc);
    if (json === undefined) {
      json = render(doc as T);
      rendered.set(doc, json);
    }
    return json;
  }
}
