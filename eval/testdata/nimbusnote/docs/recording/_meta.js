export default {
  bot: 'The Notetaker bot',
  uploading: 'Upload a recording'
}
