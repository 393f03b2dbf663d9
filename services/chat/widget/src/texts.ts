// The widget's own words, in the languages a shop can choose with data-lang (or its page's lang).

export const languages = ['en', 'de', 'fr', 'es'] as const
export type Lang = typeof languages[number]

export interface Texts {
  open: string
  close: string
  title: string
  greeting: string
  placeholder: string
  send: string
  you: string
  assistant: string
  team: string
  sources: string
  rate: string
  helpful: string
  notHelpful: string
  thanks: string
  handoff: string
  notAllowed: string
  unavailable: string
  tooMany: string
  failed: string
}

export const texts: Record<Lang, Texts> = {
  en: {
    open: 'Open the chat',
    close: 'Close the chat',
    title: 'Ask us',
    greeting: 'Hello! Ask me about our products, shipping or returns.',
    placeholder: 'Write a message…',
    send: 'Send',
    you: 'You',
    assistant: 'Assistant',
    team: 'Team member',
    sources: 'Sources',
    rate: 'Was this helpful?',
    helpful: 'Helpful',
    notHelpful: 'Not helpful',
    thanks: 'Thank you for your feedback.',
    handoff: 'A member of our team will see this conversation and answer here.',
    notAllowed: 'The chat is not available on this page.',
    unavailable: 'The chat is not available on this page right now.',
    tooMany: 'Too many messages at once. Please wait a moment and try again.',
    failed: 'Your message could not be sent. Please try again.'
  },
  de: {
    open: 'Chat öffnen',
    close: 'Chat schließen',
    title: 'Fragen Sie uns',
    greeting: 'Hallo! Fragen Sie mich zu unseren Produkten, zum Versand oder zu Rücksendungen.',
    placeholder: 'Nachricht schreiben…',
    send: 'Senden',
    you: 'Sie',
    assistant: 'Assistent',
    team: 'Teammitglied',
    sources: 'Quellen',
    rate: 'War das hilfreich?',
    helpful: 'Hilfreich',
    notHelpful: 'Nicht hilfreich',
    thanks: 'Danke für Ihre Rückmeldung.',
    handoff: 'Ein Mitglied unseres Teams sieht dieses Gespräch und antwortet hier.',
    notAllowed: 'Der Chat ist auf dieser Seite nicht verfügbar.',
    unavailable: 'Der Chat ist auf dieser Seite gerade nicht verfügbar.',
    tooMany: 'Zu viele Nachrichten auf einmal. Bitte warten Sie einen Moment.',
    failed: 'Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es noch einmal.'
  },
  fr: {
    open: 'Ouvrir le chat',
    close: 'Fermer le chat',
    title: 'Posez-nous une question',
    greeting: 'Bonjour ! Posez-moi vos questions sur nos produits, la livraison ou les retours.',
    placeholder: 'Écrivez un message…',
    send: 'Envoyer',
    you: 'Vous',
    assistant: 'Assistant',
    team: 'Membre de l’équipe',
    sources: 'Sources',
    rate: 'Cette réponse vous a-t-elle aidé ?',
    helpful: 'Utile',
    notHelpful: 'Pas utile',
    thanks: 'Merci pour votre avis.',
    handoff: 'Un membre de notre équipe verra cette conversation et répondra ici.',
    notAllowed: 'Le chat n’est pas disponible sur cette page.',
    unavailable: 'Le chat n’est pas disponible sur cette page pour le moment.',
    tooMany: 'Trop de messages à la fois. Veuillez patienter un instant.',
    failed: 'Votre message n’a pas pu être envoyé. Veuillez réessayer.'
  },
  es: {
    open: 'Abrir el chat',
    close: 'Cerrar el chat',
    title: 'Pregúntenos',
    greeting: '¡Hola! Pregúnteme por nuestros productos, envíos o devoluciones.',
    placeholder: 'Escriba un mensaje…',
    send: 'Enviar',
    you: 'Usted',
    assistant: 'Asistente',
    team: 'Miembro del equipo',
    sources: 'Fuentes',
    rate: '¿Le ha sido útil?',
    helpful: 'Útil',
    notHelpful: 'No útil',
    thanks: 'Gracias por su opinión.',
    handoff: 'Un miembro de nuestro equipo verá esta conversación y responderá aquí.',
    notAllowed: 'El chat no está disponible en esta página.',
    unavailable: 'El chat no está disponible en esta página en este momento.',
    tooMany: 'Demasiados mensajes a la vez. Espere un momento.',
    failed: 'No se pudo enviar su mensaje. Inténtelo de nuevo.'
  }
}

const isLang = (value: string): value is Lang => (languages as readonly string[]).includes(value)

/** data-lang when it names one of ours, else the page's language, else English (`de-AT` is `de`). */
export function langOf (wanted: string | null | undefined, page: string | null | undefined): Lang {
  for (const candidate of [wanted, page]) {
    const primary = (candidate ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? ''
    if (isLang(primary)) return primary
  }
  return 'en'
}
