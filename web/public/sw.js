/* Convoy's service worker: shows web push notices (docs/notifications.md, "Web push").
   The payload is {title, body, url, tag}, encrypted for this browser by the server; a click
   opens (or focuses) the game's page. Nothing is cached here. */
self.addEventListener("push", (event) => {
  let notice = { title: "Convoy", body: "", url: "/", tag: "convoy" };
  try {
    notice = { ...notice, ...event.data.json() };
  } catch {
    /* an empty or unreadable push still shows the generic notice */
  }
  event.waitUntil(self.registration.showNotification(notice.title, {
    body: notice.body, tag: notice.tag, data: { url: notice.url }, icon: "/favicon.svg",
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
    const same = open.find((client) => client.url === url);
    return same ? same.focus() : self.clients.openWindow(url);
  }));
});
